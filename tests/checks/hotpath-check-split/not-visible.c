// The header only declares struct blob; the fast path reads b->len, so it
// cannot go into the header: the finding comes without a fix.
#include <stdio.h>
#include "not-visible.h"

struct blob { unsigned long len; };

bool check_blob(const struct blob *b, unsigned long off)
{
// CHECK-MESSAGES: :[[@LINE-2]]:6: warning: check function 'check_blob' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:6: note: 'check_blob' is hot: 1 call site, 1 in loops
// CHECK-MESSAGES: not-visible.h:5:1: note: no fix: the inline fast path needs the definition of 'struct blob', which is not visible in 'not-visible.h'
	if (off >= b->len) {
		fprintf(stderr, "offset %lu\n", off);
		return false;
	}
	if (off + 16 > b->len) {
		fprintf(stderr, "end %lu\n", off + 16);
		return false;
	}
	return true;
}

int probe(const struct blob *b)
{
	int n = 0;
	for (unsigned long i = 0; i < 64; i++)
		n += check_blob(b, i);
	return n;
}
