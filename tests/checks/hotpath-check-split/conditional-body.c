// hotpath-configurations: -DCHECK_ALIGN
// The body is compiled differently under CHECK_ALIGN: a fast path made
// from this configuration would not test the alignment in that one.
#include <stdbool.h>
#include <stdio.h>

static bool check_slot(unsigned long off, unsigned long size)
{
// CHECK-MESSAGES: :[[@LINE-2]]:13: warning: check function 'check_slot' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:13: note: 'check_slot' is hot: 1 call site, 1 in loops
	if (off > size) {
		fprintf(stderr, "slot %lu past %lu\n", off, size);
		return false;
	}
#ifdef CHECK_ALIGN
// CHECK-MESSAGES: :[[@LINE-1]]:1: note: no fix: the body of 'check_slot' is compiled differently under '#ifdef CHECK_ALIGN'; a fast path made from this configuration would be wrong in the others
	if (off & 7) {
		fprintf(stderr, "slot %lu not aligned\n", off);
		return false;
	}
#endif
	if (size - off < 8) {
		fprintf(stderr, "slot %lu too short\n", off);
		return false;
	}
	return true;
}

unsigned long run(unsigned long size, unsigned long n)
{
	unsigned long ok = 0;
	for (unsigned long i = 0; i < n; i++)
		ok += check_slot(i, size);
	return ok;
}
