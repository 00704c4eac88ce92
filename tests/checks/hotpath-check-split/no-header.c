// External linkage and no header declaration: callers elsewhere could not see
// an inline fast path, so the finding comes without a fix.
#include <stdbool.h>
#include <stdio.h>

bool check_len(unsigned long len, unsigned long max)
{
	if (len == 0) {
		fprintf(stderr, "empty\n");
		return false;
	}
	if (len > max) {
		fprintf(stderr, "too long: %lu\n", len);
		return false;
	}
	return true;
}

unsigned long total(const unsigned long *lens, int n)
{
	unsigned long t = 0;
	for (int i = 0; i < n; i++)
		if (check_len(lens[i], 4096))
			t += lens[i];
	return t;
}
