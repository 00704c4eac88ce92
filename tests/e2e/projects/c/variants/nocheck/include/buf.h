/* The "no check" build: the same program with no bounds check, no trace and
 * no fault-injection hook, for the instruction counts the fix is judged by. */
#ifndef BUF_H
#define BUF_H

#include <stdbool.h>
#include <stdint.h>

struct buf {
	unsigned long len;
	unsigned char *data;
};

static inline bool check_range(const struct buf *b, unsigned int off, int size)
{
	(void)b;
	(void)off;
	(void)size;
	return true;
}

extern int trace_on;
static inline void trace_event(unsigned long i, unsigned int off)
{
	(void)i;
	(void)off;
}
void trace_enable(int on);

static inline int should_fail(unsigned long i)
{
	(void)i;
	return 0;
}

#endif /* BUF_H */
