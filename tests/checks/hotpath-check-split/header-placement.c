// External linkage, declared in a header: the inline fast path replaces the
// header declaration, the slow path stays here and is declared there.
#include <stdio.h>
#include "header-placement.h"

bool check_setget_bounds(const struct extent_buffer *eb, unsigned int off, unsigned int size)
{
	const unsigned long end = (unsigned long)off + size;

	if (off > eb->len) {
		fprintf(stderr, "bad eb member start: start %llu offset %u size %u\n", eb->start, off, size);
		return false;
	}
	if (end > eb->len) {
		fprintf(stderr, "bad eb member end: start %llu offset %u size %u\n", eb->start, off, size);
		return false;
	}
	return true;
}
