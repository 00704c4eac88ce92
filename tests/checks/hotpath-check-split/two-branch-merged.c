// The size is a signed int, so "off + size" may wrap and neither condition
// provably implies the other: both are kept, joined with | (one branch).
#include <stdbool.h>
#include <stdio.h>

struct buf { unsigned long len; unsigned char *data; };

static bool check_bounds(const struct buf *b, unsigned long off, int size)
{
// CHECK-MESSAGES: :[[@LINE-2]]:13: warning: check function 'check_bounds' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:13: note: 'check_bounds' is hot: 1 call site, 1 in loops
	unsigned long end = off + size;

	if (off > b->len) {
		fprintf(stderr, "start %lu\n", off);
		return false;
	}
	if (end > b->len) {
		fprintf(stderr, "end %lu\n", end);
		return false;
	}
	return true;
}

unsigned sum(const struct buf *b, unsigned long n)
{
	unsigned total = 0;
	for (unsigned long i = 0; i < n; i++)
		if (check_bounds(b, i, 1))
			total += b->data[i];
	return total;
}
