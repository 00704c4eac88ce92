// The slow path evaluates the conditions again: a call that is not known to
// be pure, or a volatile read, rules the fix out.
#include <stdbool.h>
#include <stdio.h>

extern unsigned long current_limit(void);
volatile unsigned long hw_limit;

static bool check_against_limit(unsigned long n)
{
// CHECK-MESSAGES: :[[@LINE-2]]:13: warning: check function 'check_against_limit' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:13: note: 'check_against_limit' is hot: 1 call site, 1 in loops
	if (n == 0) {
		fprintf(stderr, "zero\n");
		return false;
	}
	if (n > current_limit()) {
	// CHECK-MESSAGES: :[[@LINE-1]]:10: note: no fix: the slow path evaluates this condition again, and it calls 'current_limit', which is not known to be pure
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
