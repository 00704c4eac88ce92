/* btrfs-like extent buffer, as the user-space copy of the kernel's
 * accessors sees it. */
#ifndef EXTENT_BUFFER_H
#define EXTENT_BUFFER_H

#include <stdbool.h>
#include <stdint.h>

struct extent_buffer {
	unsigned long long start;
	unsigned long len;
	unsigned char *data;
};

uint8_t get_u8(const struct extent_buffer *eb, unsigned int off);
uint16_t get_u16(const struct extent_buffer *eb, unsigned int off);
uint32_t get_u32(const struct extent_buffer *eb, unsigned int off);
uint64_t get_u64(const struct extent_buffer *eb, unsigned int off);
void set_u8(struct extent_buffer *eb, unsigned int off, uint8_t val);
void set_u16(struct extent_buffer *eb, unsigned int off, uint16_t val);
void set_u32(struct extent_buffer *eb, unsigned int off, uint32_t val);
void set_u64(struct extent_buffer *eb, unsigned int off, uint64_t val);

#endif /* EXTENT_BUFFER_H */
