// hotpath-args: -std=c11
// hotpath-options: Explain=check_bounds; HotFunctions=check_bounds
// Explain mode on a function that is reported: every step, the heat with
// its source (the HotFunctions option here, not the rule set) and the fix.
#include <stdbool.h>
#include <stdio.h>

struct buf { unsigned long len; };

static bool check_bounds(const struct buf *b, unsigned long off)
{
// CHECK-MESSAGES: :[[@LINE-2]]:13: warning: check function 'check_bounds' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:13: note: 'check_bounds' is hot: 1 call site, named hot by the HotFunctions option
// CHECK-MESSAGES: :[[@LINE-4]]:13: remark: explain 'check_bounds': a definition of function 'check_bounds'; the steps of hotpath-check-split follow [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-5]]:13: note: a check function: 2 branch(es) that report and leave, then the success path
// CHECK-MESSAGES: :[[@LINE-6]]:13: note: hot: heat score 1001 (1 call site, named hot by the HotFunctions option) against MultiBranchThreshold 3; a call site scores 1, in a loop 2 more, from a macro-generated accessor 4 more, in an assert-like macro 1 more
// CHECK-MESSAGES: :[[@LINE-7]]:13: note: reported, with a fix
	if (off > b->len) {
		fprintf(stderr, "bad offset %lu\n", off);
		return false;
	}
	if (off == 0) {
		fprintf(stderr, "null offset\n");
		return false;
	}
	return true;
}

int get(const struct buf *b, unsigned long off)
{
	return check_bounds(b, off) ? (int)off : -1;
}
