/* btrfs-like extent buffer with bounds-checked accessors ("before" form). */
#ifndef EXTENT_BUFFER_H
#define EXTENT_BUFFER_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define unlikely(x) __builtin_expect(!!(x), 0)

struct extent_buffer {
	unsigned long long start;
	unsigned long len;
	unsigned char *data;
};

__attribute__((noinline, cold)) bool check_setget_bounds_report(const struct extent_buffer *eb, unsigned int off, unsigned int size);

/* Shape (e): || of both conditions, void-ed report call, return false. */
static inline bool check_setget_bounds(const struct extent_buffer *eb, unsigned int off, unsigned int size)
{
	const unsigned long end = (unsigned long)off + size;

	if (unlikely(off > eb->len || end > eb->len)) {
		(void)check_setget_bounds_report(eb, off, size);
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

uint8_t get_u8(const struct extent_buffer *eb, unsigned int off);
uint16_t get_u16(const struct extent_buffer *eb, unsigned int off);
uint32_t get_u32(const struct extent_buffer *eb, unsigned int off);
uint64_t get_u64(const struct extent_buffer *eb, unsigned int off);
void set_u8(struct extent_buffer *eb, unsigned int off, uint8_t val);
void set_u16(struct extent_buffer *eb, unsigned int off, uint16_t val);
void set_u32(struct extent_buffer *eb, unsigned int off, uint32_t val);
void set_u64(struct extent_buffer *eb, unsigned int off, uint64_t val);

#endif /* EXTENT_BUFFER_H */
