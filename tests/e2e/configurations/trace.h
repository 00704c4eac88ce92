/* Tracing hooks: out of line, unless the build has none (NO_HOOKS). */
#ifndef TRACE_H
#define TRACE_H

#include <stdbool.h>

#ifndef NO_HOOKS
/* True when the traced operation must be dropped. */
bool trace_op(int op, unsigned long arg);
#else
static inline bool trace_op(int op, unsigned long arg)
{
	(void)op;
	(void)arg;
	return false;
}
#endif

#endif /* TRACE_H */
