/* The accessors and their bounds check in one file, as in the kernel's
 * fs/btrfs/accessors.c, compiled against the user-space kerncompat.h. */
#include <stdio.h>
#include <string.h>

#include "kerncompat.h"
#include "extent_buffer.h"

static bool check_setget_bounds(const struct extent_buffer *eb, unsigned int off, unsigned int size)
{
	const unsigned long end = (unsigned long)off + size;

	if (off > eb->len) {
		fprintf(stderr, "bad eb member start: start %llu member offset %u size %u\n", eb->start, off, size);
		return false;
	}
	if (unlikely(end > eb->len)) {
		fprintf(stderr, "bad eb member end: start %llu member offset %u size %u\n", eb->start, off, size);
		return false;
	}
	return true;
}

#define DEFINE_SETGET_FUNCS(bits)						\
uint##bits##_t get_u##bits(const struct extent_buffer *eb, unsigned int off)	\
{										\
	uint##bits##_t val;							\
										\
	if (!check_setget_bounds(eb, off, sizeof(uint##bits##_t)))		\
		return 0;							\
	memcpy(&val, eb->data + off, sizeof(val));				\
	return val;								\
}										\
void set_u##bits(struct extent_buffer *eb, unsigned int off, uint##bits##_t val) \
{										\
	if (!check_setget_bounds(eb, off, sizeof(uint##bits##_t)))		\
		return;								\
	memcpy(eb->data + off, &val, sizeof(val));				\
}

DEFINE_SETGET_FUNCS(8)
DEFINE_SETGET_FUNCS(16)
DEFINE_SETGET_FUNCS(32)
DEFINE_SETGET_FUNCS(64)
