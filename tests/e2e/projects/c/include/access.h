/* Typed readers, one per width, all written by one macro. */
#ifndef ACCESS_H
#define ACCESS_H

#include <string.h>

#include "buf.h"

#define DEFINE_GET(bits)							\
uint##bits##_t get_u##bits(const struct buf *b, unsigned int off)		\
{										\
	uint##bits##_t v;							\
										\
	if (!check_range(b, off, (int)sizeof(v)))				\
		return 0;							\
	memcpy(&v, b->data + off, sizeof(v));					\
	return v;								\
}

uint8_t get_u8(const struct buf *b, unsigned int off);
uint16_t get_u16(const struct buf *b, unsigned int off);
uint32_t get_u32(const struct buf *b, unsigned int off);
uint64_t get_u64(const struct buf *b, unsigned int off);

#endif /* ACCESS_H */
