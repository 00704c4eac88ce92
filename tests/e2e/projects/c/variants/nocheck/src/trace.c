/* No trace in this build (include/buf.h); the switch stays. */
#include "buf.h"

int trace_on;

void trace_enable(int on)
{
	trace_on = on;
}
