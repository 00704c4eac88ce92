// External linkage and no header declaration: callers elsewhere could not see
// an inline fast path, so the finding comes without a fix.
#include <stdbool.h>
#include <stdio.h>

bool check_len(unsigned long len, unsigned long max)
{
// CHECK-MESSAGES: :[[@LINE-2]]:6: warning: check function 'check_len' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:6: note: 'check_len' is hot: 1 call site, 1 in loops
// CHECK-MESSAGES: :[[@LINE-4]]:6: note: no fix: it has external linkage and no declaration in a header to put the inline fast path in
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
