#include <stdio.h>

#include "extent_buffer.h"

/* Cold reporter: same messages as the original, start vs end decided here. */
void report_setget_bounds(const struct extent_buffer *eb, unsigned int off, unsigned int size)
{
	fprintf(stderr, "bad eb member %s: start %llu member offset %u size %u\n",
		off > eb->len ? "start" : "end", eb->start, off, size);
}
