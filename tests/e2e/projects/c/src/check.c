#include <stdio.h>

#include "buf.h"

bool check_range(const struct buf *b, unsigned int off, int size)
{
	const unsigned long end = (unsigned long)off + size;

	if (off > b->len) {
		fprintf(stderr, "bad start: offset %u size %d len %lu\n", off, size, b->len);
		return false;
	}
	if (end > b->len) {
		fprintf(stderr, "bad end: offset %u size %d len %lu\n", off, size, b->len);
		return false;
	}
	return true;
}
