/* Out-of-line accessors: own translation unit. Each reports a bad range
 * through the check, then tests the same bound again before it copies. */
#include "buf.h"

unsigned int buf_get_u32(const struct buf *b, unsigned long off)
{
	unsigned int v;

	VERIFY(buf_check_range(b, off, sizeof(v)));
	if (off > b->size || sizeof(v) > b->size - off)
		return 0;
	memcpy(&v, b->data + off, sizeof(v));
	return v;
}

void buf_put_u32(struct buf *b, unsigned long off, unsigned int v)
{
	VERIFY(buf_check_range(b, off, sizeof(v)));
	if (off > b->size || sizeof(v) > b->size - off)
		return;
	memcpy(b->data + off, &v, sizeof(v));
}

unsigned long buf_read(const struct buf *b, unsigned long off, unsigned long len,
		       unsigned char *dst)
{
	VERIFY(buf_check_range(b, off, len));
	if (off > b->size || len > b->size - off)
		return 0;
	memcpy(dst, b->data + off, len);
	return len;
}
