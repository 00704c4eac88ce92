// mm/maccess.c (Linux 6.1): a __weak default that another file (arch/x86)
// replaces. What is linked is more than the compile database shows, so a
// weak definition is no hook unless the rules name it: no warning.
#include <stdbool.h>

__attribute__((weak)) bool copy_allowed(const void *src, unsigned long size)
{
	(void)src;
	(void)size;
	return true;
}

int copy_all(const void **srcs, int n)
{
	int copied = 0;

	for (int i = 0; i < n; i++)
		if (copy_allowed(srcs[i], 8))
			copied++;
	return copied;
}
