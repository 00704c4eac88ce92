// hotpath-args: -std=c11
// hotpath-options: Explain=check_else
// Explain mode on a function that is not reported: a shape not recognised
// yet (the success return in an else branch) says so, where it is.
#include <stdbool.h>
#include <stdio.h>

struct buf { unsigned long len; };

static bool check_else(const struct buf *b, unsigned long off)
{
// CHECK-MESSAGES: :[[@LINE-2]]:13: remark: explain 'check_else': a definition of function 'check_else'; the steps of hotpath-check-split follow [hotpath-check-split]
	if (off > b->len) {
		fprintf(stderr, "bad offset %lu\n", off);
		return false;
	} else {
	// CHECK-MESSAGES: :[[@LINE-1]]:9: note: not a check function: an else branch holds the success return (not recognised yet)
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
