// The size is a signed int, so "off + size" may wrap and neither condition
// provably implies the other: both are kept, joined with | (one branch).
#include <stdbool.h>
#include <stdio.h>

struct buf { unsigned long len; unsigned char *data; };

static bool check_bounds(const struct buf *b, unsigned long off, int size)
{
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
