// Failure branches return different values: the fast path returns what the
// slow path returns. The void check leaves through abort().
#include <stdio.h>
#include <stdlib.h>

struct req { unsigned int len; unsigned int flags; };

static int validate(const struct req *r)
{
// CHECK-MESSAGES: :[[@LINE-2]]:12: warning: check function 'validate' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:12: note: 'validate' is hot: 1 call site, 1 in loops
	if (r->len > 4096) {
		fprintf(stderr, "length %u\n", r->len);
		return -22;
	}
	if (r->flags & 0x80u) {
		fprintf(stderr, "flags %#x\n", r->flags);
		return -95;
	}
	return 0;
}

static void must_fit(unsigned int len, unsigned int cap)
{
// CHECK-MESSAGES: :[[@LINE-2]]:13: warning: check function 'must_fit' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:13: note: 'must_fit' is hot: 1 call site, 1 in loops
	if (len > cap) {
		fprintf(stderr, "%u > %u\n", len, cap);
		abort();
	}
	if (cap == 0) {
		fprintf(stderr, "no capacity\n");
		abort();
	}
}

int handle(const struct req *reqs, int n)
{
	int bad = 0;
	for (int i = 0; i < n; i++) {
		if (validate(&reqs[i]))
			bad++;
		must_fit(reqs[i].len, 8192);
	}
	return bad;
}
