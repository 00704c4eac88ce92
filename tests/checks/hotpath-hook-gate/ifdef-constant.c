// hotpath-options: CloneMaxLines=3
// A weak hook whose body #ifdef leaves as "return 0": its value is used in a
// condition and in an assignment. CloneMaxLines=3 keeps the caller from
// being cloned, so each call is gated in place.
#include <stdbool.h>

__attribute__((weak)) int should_fail_io(unsigned long sector)
{
#ifdef CONFIG_FAIL_IO
	return sector % 7 == 0;
#endif
	(void)sector;
	return 0;
}

int submit(unsigned long *sectors, int n)
{
	int i, err = 0;

	for (i = 0; i < n; i++) {
		if (should_fail_io(sectors[i]))
			return -5;
		err = should_fail_io(sectors[i] + 1);
		if (err)
			break;
		should_fail_io(sectors[i]);
	}
	return err;
}
