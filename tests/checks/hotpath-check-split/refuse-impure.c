// The slow path evaluates the conditions again: a call that is not known to
// be pure, or a volatile read, rules the fix out.
#include <stdbool.h>
#include <stdio.h>

extern unsigned long current_limit(void);
volatile unsigned long hw_limit;

static bool check_against_limit(unsigned long n)
{
	if (n == 0) {
		fprintf(stderr, "zero\n");
		return false;
	}
	if (n > current_limit()) {
		fprintf(stderr, "over limit: %lu\n", n);
		return false;
	}
	return true;
}

static bool check_against_hw(unsigned long n)
{
	if (n == 0) {
		fprintf(stderr, "zero\n");
		return false;
	}
	if (n > hw_limit) {
		fprintf(stderr, "over hw limit: %lu\n", n);
		return false;
	}
	return true;
}

unsigned long use(const unsigned long *v, int n)
{
	unsigned long t = 0;
	for (int i = 0; i < n; i++) {
		if (check_against_limit(v[i]))
			t += v[i];
		if (check_against_hw(v[i]))
			t -= v[i];
	}
	return t;
}
