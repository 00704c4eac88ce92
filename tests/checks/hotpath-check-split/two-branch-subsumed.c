// Two reporting branches; the first condition implies the second because the
// 32-bit offset and size are summed in 64 bits, so the fast path tests one.
#include <stdbool.h>
#include <stdio.h>

struct buf { unsigned long len; unsigned char *data; };

static bool check_bounds(const struct buf *b, unsigned int off, unsigned int size)
{
// CHECK-MESSAGES: :[[@LINE-2]]:13: warning: check function 'check_bounds' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:13: note: 'check_bounds' is hot: called by get8 (two-branch-subsumed.c:26), which is called in a loop in sum8 (two-branch-subsumed.c:35)
	const unsigned long end = (unsigned long)off + size;

	if (off > b->len) {
	// CHECK-MESSAGES: :[[@LINE-1]]:6: note: this condition implies 'end > b->len' (the sum cannot wrap), so the fast path tests only that one
		fprintf(stderr, "start %u beyond %lu\n", off, b->len);
		return false;
	}
	if (end > b->len) {
		fprintf(stderr, "end %lu beyond %lu\n", end, b->len);
		return false;
	}
	return true;
}

unsigned get8(const struct buf *b, unsigned int off) { return check_bounds(b, off, 1) ? b->data[off] : 0; }
unsigned get16(const struct buf *b, unsigned int off) { return check_bounds(b, off, 2) ? b->data[off] : 0; }
unsigned get32(const struct buf *b, unsigned int off) { return check_bounds(b, off, 4) ? b->data[off] : 0; }

/* Called in a loop: the chain of calls makes check_bounds hot. */
unsigned sum8(const struct buf *b)
{
	unsigned s = 0;
	for (unsigned int i = 0; i < 8; i++)
		s += get8(b, i);
	return s;
}
