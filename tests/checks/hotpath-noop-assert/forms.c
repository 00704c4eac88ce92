// hotpath-args: -std=c11
// hotpath-options: AssertMacros=CHECK_IF,NOT_NOT
// Every disabled form that still evaluates, on both sides of #ifdef, with
// arguments that are pointers, bit-fields, enum comparisons and calls.
#include <assert.h>
#include <stdbool.h>
#include <stdio.h>

#ifdef MY_DEBUG
#define ASSERT(x) ((x) ? (void)0 : (void)fprintf(stderr, "%s\n", #x))
#define Assert(x) do { if (!(x)) fprintf(stderr, "%s\n", #x); } while (0)
#else
#define ASSERT(x) (void)(x)
// CHECK-MESSAGES: :[[@LINE-1]]:9: warning: disabled assert 'ASSERT' still evaluates its argument; make it type-check the argument without evaluating it [hotpath-noop-assert]
// CHECK-MESSAGES: :[[@LINE+52]]:2: note: its use here does work the compiler must keep: it calls 'length', which runs a loop
#define Assert(x) ((void)(x))
// CHECK-MESSAGES: :[[@LINE-1]]:9: warning: disabled assert 'Assert' still evaluates its argument; make it type-check the argument without evaluating it [hotpath-noop-assert]
// CHECK-MESSAGES: :[[@LINE+50]]:2: note: its use here does work the compiler must keep: it calls 'opaque', whose body is not visible and which is not known to be pure
#endif

#ifndef NDEBUG
#define DCHECK(x) do { if (!(x)) fprintf(stderr, "%s\n", #x); } while (0)
#else
#define DCHECK(x) do { (void)(x); } while (0)
// CHECK-MESSAGES: :[[@LINE-1]]:9: warning: disabled assert 'DCHECK' still evaluates its argument; make it type-check the argument without evaluating it [hotpath-noop-assert]
// CHECK-MESSAGES: :[[@LINE+43]]:2: note: its use here does work the compiler must keep: it calls 'node_ok', which calls 'fprintf', whose body is not visible and which is not known to be pure
// CHECK-MESSAGES: :[[@LINE+42]]:9: note: 'node_ok' is a check function that only reports: dropping its call with the disabled assert is the point
#endif

#define CHECK_IF(x) if (x) {}
// CHECK-MESSAGES: :[[@LINE-1]]:9: warning: disabled assert 'CHECK_IF' still evaluates its argument; make it type-check the argument without evaluating it [hotpath-noop-assert]
// CHECK-MESSAGES: :[[@LINE+38]]:2: note: its use here does work the compiler must keep: it calls 'length', which runs a loop
#define NOT_NOT(x) (void)!!(x)
// CHECK-MESSAGES: :[[@LINE-1]]:9: warning: disabled assert 'NOT_NOT' still evaluates its argument; make it type-check the argument without evaluating it [hotpath-noop-assert]
/* Already free: left alone. */
#define ALREADY(x) ((void)sizeof(!(x)))

enum color { RED, GREEN };
struct node { unsigned sorted : 1; enum color c; struct node *next; };

int opaque(const struct node *n); /* body not visible: counts as a check */

static bool node_ok(const struct node *n)
{
	if (n->next == n) {
		fprintf(stderr, "loop at %p\n", (const void *)n);
		return false;
	}
	return true;
}

static int length(const struct node *n)
{
	int len = 0;
	for (; n; n = n->next)
		len++;
	return len;
}

int walk(struct node *n)
{
	/* Loads and comparisons cost nothing; the compiler drops them. */
	ASSERT(n);
	ASSERT(n->sorted);
	Assert(n->c == GREEN);
	/* A loop, and a call it cannot see, it must keep: these are the cost. */
	ASSERT(length(n) < 1000);
	Assert(opaque(n) != 1);
	DCHECK(node_ok(n));
	CHECK_IF(length(n) > 0);
	NOT_NOT(opaque(n));
	// CHECK-MESSAGES: :[[@LINE-1]]:2: note: its use here does work the compiler must keep: it calls 'opaque', whose body is not visible and which is not known to be pure
	assert(n->next != n);
	return n->c == RED;
}
