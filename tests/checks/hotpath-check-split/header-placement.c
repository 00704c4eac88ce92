// External linkage, declared in a header: the inline fast path replaces the
// header declaration, the slow path stays here and is declared there.
#include <stdio.h>
#include "header-placement.h"

bool check_setget_bounds(const struct extent_buffer *eb, unsigned int off, unsigned int size)
{
// CHECK-MESSAGES: :[[@LINE-2]]:6: warning: check function 'check_setget_bounds' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:6: note: 'check_setget_bounds' is hot: called by accessor macro 'DEFINE_GETTER'
	const unsigned long end = (unsigned long)off + size;

	if (off > eb->len) {
	// CHECK-MESSAGES: :[[@LINE-1]]:6: note: this condition implies 'end > eb->len' (the sum cannot wrap), so the fast path tests only that one
		fprintf(stderr, "bad eb member start: start %llu offset %u size %u\n", eb->start, off, size);
		return false;
	}
	if (end > eb->len) {
		fprintf(stderr, "bad eb member end: start %llu offset %u size %u\n", eb->start, off, size);
		return false;
	}
	return true;
}
