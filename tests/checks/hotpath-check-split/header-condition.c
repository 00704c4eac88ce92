// hotpath-configurations: -DBIG_PAGES
// The fast path goes into the header, where PAGE_LIMIT is defined in both
// branches of an #ifdef (the value is chosen by configuration: fine), and
// PAGE_SHIFT only in one: shift_ok() is defined only there, but the header
// declares it in every configuration (no fix: the fast path would not
// compile with BIG_PAGES).
#include <stdio.h>
#include "header-condition.h"

bool page_ok(unsigned long off)
{
// CHECK-MESSAGES: :[[@LINE-2]]:6: warning: check function 'page_ok' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:6: note: 'page_ok' is hot: 1 call site, 1 in loops
	if (off > PAGE_LIMIT) {
		fprintf(stderr, "offset %lu past the page\n", off);
		return false;
	}
	if (off + 8 > PAGE_LIMIT) {
		fprintf(stderr, "offset %lu too close to the end\n", off);
		return false;
	}
	return true;
}

#ifndef BIG_PAGES
bool shift_ok(unsigned long off)
{
// CHECK-MESSAGES: :[[@LINE-2]]:6: warning: check function 'shift_ok' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:6: note: 'shift_ok' is hot: 1 call site, 1 in loops
// CHECK-MESSAGES: header-condition.h:13:1: note: no fix: the new code needs macro 'PAGE_SHIFT', which is there only under '#ifndef BIG_PAGES'
	if (off >> PAGE_SHIFT) {
		fprintf(stderr, "offset %lu past the page\n", off);
		return false;
	}
	if (off & 7) {
		fprintf(stderr, "offset %lu not aligned\n", off);
		return false;
	}
	return true;
}
#endif

unsigned long run(unsigned long n)
{
	unsigned long ok = 0;
	for (unsigned long i = 0; i < n; i++) {
#ifndef BIG_PAGES
		ok += shift_ok(i);
#endif
		ok += page_ok(i);
	}
	return ok;
}
