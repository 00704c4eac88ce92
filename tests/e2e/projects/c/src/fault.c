#include "buf.h"

int should_fail(unsigned long i)
{
	(void)i;
	return 0;
}
