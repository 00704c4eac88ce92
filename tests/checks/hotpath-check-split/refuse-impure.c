// The slow path evaluates the conditions again. A call that is not known to
// be pure makes a function no check function at all: it does work besides
// testing (current_limit() may read a device), so nothing is reported. A
// volatile read is a check of hardware state: reported, the fix refused.
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
// CHECK-MESSAGES: :[[@LINE-2]]:13: warning: check function 'check_against_hw' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:13: note: 'check_against_hw' is hot: 1 call site, 1 in loops
	if (n == 0) {
		fprintf(stderr, "zero\n");
		return false;
	}
	if (n > hw_limit) {
	// CHECK-MESSAGES: :[[@LINE-1]]:10: note: no fix: the slow path evaluates this condition again, and it reads volatile storage
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
