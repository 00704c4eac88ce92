// hotpath-options: MultiBranchThreshold=1
// A header fast path that calls a static function of this file: the
// function would move into the header with it, but its body names what the
// header does not see (NULL, from <stddef.h> included here only), so there
// is no fix, and the note says which function and why.
#include <stddef.h>
#include <stdio.h>
#include "shape-helper-stays.h"

static __attribute__((const)) const char *type_name(unsigned m)
{
	return m == 0x5a ? "handle" : NULL;
}

int check_handle(const struct handle *h, unsigned state)
{
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: check function 'check_handle' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:5: note: 'check_handle' is hot: 1 call site, 1 in loops
// CHECK-MESSAGES: shape-helper-stays.c:10:43: note: no fix: the inline fast path calls 'type_name', a static function of this file, which cannot move into 'shape-helper-stays.h' before it: it needs macro 'NULL', which is not visible there
	const char *name = type_name(h->magic);

	if (!name) {
		fprintf(stderr, "bad handle %#x\n", h->magic);
		return -1;
	}
	if ((h->state & state) == 0) {
		fprintf(stderr, "%s in state %#x\n", name, h->state);
		return -1;
	}
	return 0;
}

int run(const struct handle *hs, int n)
{
	int bad = 0;
	for (int i = 0; i < n; i++)
		bad += check_handle(&hs[i], 3) != 0;
	return bad;
}
