// hotpath-args: -std=c11
// hotpath-options: Explain=check_else
// Explain mode on a function that is not reported: the success return in an
// else branch is read as the return after the if (a check function), and the
// steps say the function is not hot enough, with the score and threshold.
#include <stdbool.h>
#include <stdio.h>

struct buf { unsigned long len; };

static bool check_else(const struct buf *b, unsigned long off)
{
// CHECK-MESSAGES: :[[@LINE-2]]:13: remark: explain 'check_else': a definition of function 'check_else'; the steps of hotpath-check-split follow [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:13: note: a check function: 1 branch(es) that report and leave, then the success path
// CHECK-MESSAGES: :[[@LINE-4]]:13: note: not hot: heat score 3 (1 call site, 1 in loops) against SingleBranchThreshold 8; a call site scores 1, in a loop 2 more, from a macro-generated accessor 4 more, in an assert-like macro 1 more
	if (off > b->len) {
		fprintf(stderr, "bad offset %lu\n", off);
		return false;
	} else {
		return true;
	}
}

int get(const struct buf *b, const unsigned long *offs, int n)
{
	int bad = 0;
	for (int i = 0; i < n; i++)
		bad += !check_else(b, offs[i]);
	return bad;
}
