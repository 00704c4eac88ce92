/* "No check" floor: the accessors keep their own guard, and the check is an
 * inline "return true". */
#ifndef BUF_H
#define BUF_H

#include <stdbool.h>
#include <string.h>

struct buf {
	unsigned char *data;
	unsigned long size;
};

#define VERIFY(x) ((void)(x))

static inline bool buf_check_range(const struct buf *b, unsigned long off, unsigned long len)
{
	(void)b;
	(void)off;
	(void)len;
	return true;
}

unsigned int buf_get_u32(const struct buf *b, unsigned long off);
void buf_put_u32(struct buf *b, unsigned long off, unsigned int v);
unsigned long buf_read(const struct buf *b, unsigned long off, unsigned long len,
		       unsigned char *dst);

#endif /* BUF_H */
