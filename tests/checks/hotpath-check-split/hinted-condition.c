// A condition that already carries a hint (a working unlikely(), or
// __builtin_expect written out) is tested as it is: one hint, never a hint
// wrapped in another.
#include <stdbool.h>
#include <stdio.h>

#define unlikely(x) __builtin_expect(!!(x), 0)

static bool check_hinted(unsigned long off, unsigned long len)
{
// CHECK-MESSAGES: :[[@LINE-2]]:13: warning: check function 'check_hinted' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:13: note: 'check_hinted' is hot: 1 call site, 1 in loops
	if (unlikely(off > len)) {
		fprintf(stderr, "offset %lu\n", off);
		return false;
	}
	if (__builtin_expect(off + 8 > len, 0)) {
		fprintf(stderr, "end %lu\n", off + 8);
		return false;
	}
	return true;
}

static bool check_one(const char *p)
{
// CHECK-MESSAGES: :[[@LINE-2]]:13: warning: check function 'check_one' keeps its reporting code inline on a hot path; move it to a cold function so the check can be inlined [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:13: note: 'check_one' is hot: 4 call sites, 4 in loops
	if (unlikely(!p)) {
		fprintf(stderr, "no pointer\n");
		return false;
	}
	return true;
}

unsigned long run(unsigned long len, const char *p, int n)
{
	unsigned long ok = 0;
	for (int i = 0; i < n; i++)
		ok += check_hinted((unsigned long)i, len) + check_one(p) + check_one(p + 1) +
		      check_one(p + 2) + check_one(p + 3);
	return ok;
}
