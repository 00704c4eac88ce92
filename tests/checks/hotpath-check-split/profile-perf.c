// hotpath-options: Profile=profile-perf.perf.txt
// With a profile, heat comes from it: check_hot has one call site but 13.5%
// of the samples; check_busy has many call sites but no samples, so it is
// not reported.
#include <stdbool.h>
#include <stdio.h>

static bool check_hot(unsigned long off, unsigned long len)
{
// CHECK-MESSAGES: :[[@LINE-2]]:13: warning: check function 'check_hot' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:13: note: 'check_hot' is hot: 18.7% of self samples of its space (user or kernel) in 'profile-perf.perf.txt', 1 call site
	if (off > len) {
		fprintf(stderr, "start %lu\n", off);
		return false;
	}
	if (off + 8 > len) {
		fprintf(stderr, "end %lu\n", off + 8);
		return false;
	}
	return true;
}

static bool check_busy(unsigned long off, unsigned long len)
{
	if (off > len) {
		fprintf(stderr, "start %lu\n", off);
		return false;
	}
	if (off + 4 > len) {
		fprintf(stderr, "end %lu\n", off + 4);
		return false;
	}
	return true;
}

int use(unsigned long n)
{
	int r = check_hot(n, 64);
	for (unsigned long i = 0; i < n; i++)
		r += check_busy(i, n) + check_busy(i, 2 * n) + check_busy(i + 1, n);
	return r;
}
