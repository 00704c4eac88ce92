// hotpath-args: -std=c11
// hotpath-options: Explain=check_limits
// A visible body that does more than read is said as what it does, and
// where: the helper counts its calls in a global, so the slow path would
// count them twice.
#include <stdbool.h>
#include <stdio.h>

static unsigned long lookups;

static inline unsigned long limit_of(const unsigned long *limits, int i)
{
	lookups++;
	return limits[i];
}

static bool check_limits(const unsigned long *limits, unsigned long n)
{
// CHECK-MESSAGES: :[[@LINE-2]]:13: remark: explain 'check_limits': a definition of function 'check_limits'; the steps of hotpath-check-split follow [hotpath-check-split]
	if (n == 0) {
		fprintf(stderr, "zero\n");
		return false;
	}
	if (n > limit_of(limits, 0)) {
	// CHECK-MESSAGES: :[[@LINE-1]]:10: note: not a check function: the condition of branch 2 does work besides testing: it calls 'limit_of', which increments 'lookups'
		fprintf(stderr, "over %lu\n", n);
		return false;
	}
	return true;
}

unsigned long use(const unsigned long *limits, const unsigned long *v, int n)
{
	unsigned long t = 0;
	for (int i = 0; i < n; i++)
		if (check_limits(limits, v[i]))
			t += v[i];
	return t + lookups;
}
