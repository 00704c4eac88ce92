// hotpath-configurations: -DNO_EARLY_TYPES
// A header entered first under an #if and included again, unconditionally,
// by the header that gets the fast path (lz4's programs/ include
// <stddef.h> through a platform test first): the second #include is
// skipped by the guard in this configuration, but in the others it is the
// one that declares. Before the new code it counts (span_ok: fixed); after
// it, it does not (late_ok: no fix, late_len_t would be undeclared there
// without the early include).
#include <stdio.h>
#ifndef NO_EARLY_TYPES
#include "header-include-twice.types.h"
#include "header-include-twice.late.h"
#endif
#include "header-include-twice.h"

bool span_ok(span_len_t off, span_len_t len)
{
// CHECK-MESSAGES: :[[@LINE-2]]:6: warning: check function 'span_ok' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:6: note: 'span_ok' is hot: 1 call site, 1 in loops
	const span_len_t end = off + len;

	if (off > 4096) {
		fprintf(stderr, "offset %lu past the page\n", off);
		return false;
	}
	if (end > 4096) {
		fprintf(stderr, "span %lu+%lu past the page\n", off, len);
		return false;
	}
	return true;
}

bool late_ok(unsigned long off, unsigned long len)
{
// CHECK-MESSAGES: :[[@LINE-2]]:6: warning: check function 'late_ok' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:6: note: 'late_ok' is hot: 1 call site, 1 in loops
// CHECK-MESSAGES: header-include-twice.h:7:1: note: no fix: the new code needs 'late_len_t', which is there only under '#ifndef NO_EARLY_TYPES'
	const late_len_t end = off + len;

	if (off > 4096) {
		fprintf(stderr, "offset %lu past the page\n", off);
		return false;
	}
	if (end > 4096) {
		fprintf(stderr, "span %lu+%lu past the page\n", off, len);
		return false;
	}
	return true;
}

unsigned long run(unsigned long n)
{
	unsigned long ok = 0;
	for (unsigned long i = 0; i < n; i++) {
		ok += span_ok(i, 8);
		ok += late_ok(i, 8);
	}
	return ok;
}
