#include <stdio.h>

#include "extent_buffer.h"

bool check_setget_bounds_report(const struct extent_buffer *eb, unsigned int off, unsigned int size)
{
	const unsigned long end = (unsigned long)off + size;

	if (off > eb->len) {
		fprintf(stderr, "bad eb member start: start %llu member offset %u size %u\n", eb->start, off, size);
		return false;
	}
	if (end > eb->len) {
		fprintf(stderr, "bad eb member end: start %llu member offset %u size %u\n", eb->start, off, size);
		return false;
	}
	return true;
}
