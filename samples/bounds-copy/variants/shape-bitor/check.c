#include <stdio.h>

#include "buf.h"

__attribute__((noinline, cold)) bool buf_check_range_report(const struct buf *b, unsigned long off, unsigned long len)
{
	if (off > b->size) {
		fprintf(stderr, "buf: offset %lu past the end (size %lu)\n", off, b->size);
		return false;
	}
	if (len > b->size - off) {
		fprintf(stderr, "buf: %lu bytes at %lu run past the end (size %lu)\n", len, off,
			b->size);
		return false;
	}
	return true;
}
