#ifndef HEADER_PLACEMENT_H
#define HEADER_PLACEMENT_H
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define unlikely(x) __builtin_expect(!!(x), 0)

struct extent_buffer { unsigned long long start; unsigned long len; unsigned char *data; };

bool check_setget_bounds(const struct extent_buffer *eb, unsigned int off, unsigned int size);

/* Accessors are generated in another translation unit from this macro. */
#define DEFINE_GETTER(bits)                                                   \
	uint##bits##_t get_u##bits(const struct extent_buffer *eb, unsigned int off) \
	{                                                                     \
		uint##bits##_t v = 0;                                         \
		if (check_setget_bounds(eb, off, sizeof(v)))                  \
			memcpy(&v, eb->data + off, sizeof(v));                \
		return v;                                                     \
	}

#endif
