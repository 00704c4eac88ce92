/* Shape "|| of hints": each condition hinted, joined with a logical or. */
/* A byte buffer whose accessors check their bounds twice ("before" form):
 * the check runs inside VERIFY(), which evaluates it in every build for its
 * reports, and the accessor then guards the copy with the same bound. */
#ifndef BUF_H
#define BUF_H

#include <stdbool.h>
#include <string.h>

struct buf {
	unsigned char *data;
	unsigned long size;
};

/* Evaluated in release builds too: the reports are wanted. */
#define VERIFY(x) ((void)(x))

__attribute__((noinline, cold)) bool buf_check_range_report(const struct buf *b, unsigned long off, unsigned long len);

static inline bool buf_check_range(const struct buf *b, unsigned long off, unsigned long len)
{
	if (__builtin_expect(off > b->size, 0) || __builtin_expect(len > b->size - off, 0)) {
		(void)buf_check_range_report(b, off, len);
		return false;
	}
	return true;
}

unsigned int buf_get_u32(const struct buf *b, unsigned long off);
void buf_put_u32(struct buf *b, unsigned long off, unsigned int v);
unsigned long buf_read(const struct buf *b, unsigned long off, unsigned long len,
		       unsigned char *dst);

#endif /* BUF_H */
