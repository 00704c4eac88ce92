#include <stdio.h>

#include "trace.h"

#ifndef NO_HOOKS
/* Does nothing unless the build traces (TRACE_VERBOSE): kept out of line so
 * that a tracing build, or a debugger, can take it over. */
__attribute__((noinline)) bool trace_op(int op, unsigned long arg)
{
#ifdef TRACE_VERBOSE
	fprintf(stderr, "trace: op %d arg %lu\n", op, arg);
	if (arg % 1000 == 0)
		return true;
#endif
	(void)op;
	(void)arg;
	return false;
}
#endif
