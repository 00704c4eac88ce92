// Check functions the rewrite must leave alone, each explained by a note.
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

static unsigned long checked;

/* The success path does more than return. */
static bool check_and_count(unsigned long off, unsigned long len)
{
// CHECK-MESSAGES: :[[@LINE-2]]:13: warning: check function 'check_and_count' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:13: note: 'check_and_count' is hot: 1 call site, 1 in loops
	if (off > len) {
		fprintf(stderr, "start %lu\n", off);
		return false;
	}
	if (off + 8 > len) {
		fprintf(stderr, "end %lu\n", off + 8);
		return false;
	}
	checked++;
	// CHECK-MESSAGES: :[[@LINE-1]]:2: note: no fix: the success path does more than return
	return true;
}

/* Variadic. */
static bool check_va(unsigned long off, unsigned long len, ...)
{
// CHECK-MESSAGES: :[[@LINE-2]]:13: warning: check function 'check_va' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:13: note: 'check_va' is hot: 1 call site, 1 in loops
// CHECK-MESSAGES: :[[@LINE-4]]:13: note: no fix: it is variadic
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

/* Its address is taken. */
static bool check_ptr(unsigned long off, unsigned long len)
{
// CHECK-MESSAGES: :[[@LINE-2]]:13: warning: check function 'check_ptr' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:13: note: 'check_ptr' is hot: 1 call site, 1 in loops
// CHECK-MESSAGES: :[[@LINE-4]]:13: note: no fix: its address is taken, and the rewrite would change the function that address names
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

bool (*checker)(unsigned long, unsigned long) = check_ptr;

/* A declaration after the first condition reads what that condition
 * guards: the fast path would compute it before the test. (A condition
 * that does the same is fine: the fast path joins them with ||.) */
struct node { unsigned long len; };
static bool check_node(const struct node *n, unsigned long off)
{
// CHECK-MESSAGES: :[[@LINE-2]]:13: warning: check function 'check_node' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:13: note: 'check_node' is hot: 1 call site, 1 in loops
	if (!n) {
		fprintf(stderr, "no node\n");
		return false;
	}
	const unsigned long len = n->len;
	// CHECK-MESSAGES: :[[@LINE-1]]:28: note: no fix: the fast path would evaluate this before the earlier conditions, and it dereferences a pointer that an earlier condition may guard
	if (off > len) {
		fprintf(stderr, "offset %lu\n", off);
		return false;
	}
	return true;
}

unsigned long run(const struct node *n, unsigned long len, int count)
{
	unsigned long t = 0;
	for (int i = 0; i < count; i++) {
		t += check_and_count((unsigned long)i, len);
		t += check_va((unsigned long)i, len, 0);
		t += check_ptr((unsigned long)i, len);
		t += check_node(n, (unsigned long)i);
	}
	return t + checked;
}
