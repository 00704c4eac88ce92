/* A byte buffer whose every read is bounds-checked by check_range(), defined
 * in src/check.c; the accessors that call it are written by a macro in
 * access.h, which check.c does not include. */
#ifndef BUF_H
#define BUF_H

#include <stdbool.h>
#include <stdint.h>

struct buf {
	unsigned long len;
	unsigned char *data;
};

/* True when [off, off + size) lies inside the buffer; reports when not. */
bool check_range(const struct buf *b, unsigned int off, int size);

/* Tracing: trace_event() reports only while trace_on is set (src/trace.c). */
extern int trace_on;
void trace_event(unsigned long i, unsigned int off);
void trace_enable(int on);

/* Fault injection: nonzero when read i must fail; never, in this build
 * (src/fault.c). */
int should_fail(unsigned long i);

#endif /* BUF_H */
