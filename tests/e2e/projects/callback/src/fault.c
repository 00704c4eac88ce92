#include <stddef.h>

#include "fault.h"

int (*fault_callback)(int);

/* Kept out of line so that a test build can replace it. */
__attribute__((noinline)) int fault_sim(int step)
{
	if (fault_callback)
		return fault_callback(step);
	return 0;
}

void fault_install(int (*cb)(int))
{
	fault_callback = cb;
}
