// hotpath-args: -std=c11
// No list or pattern names these: the structure does. A definition that only
// evaluates its condition is an assert when the other side of the same #if
// defines the macro to test that parameter and report or abort. Either side
// may be the one this build uses.
#include <stdio.h>
#include <stdlib.h>

#define PARANOID 1

#if PARANOID
#define CHECK_ARG(cond, what) do { if (!(cond)) { fprintf(stderr, "bad %s\n", what); abort(); } } while (0)
#else
#define CHECK_ARG(cond, what) ((void)(cond))
// CHECK-MESSAGES: :[[@LINE-1]]:9: warning: disabled assert 'CHECK_ARG' still evaluates its argument; make it type-check the argument without evaluating it [hotpath-noop-assert]
// CHECK-MESSAGES: :[[@LINE+28]]:2: note: its use here does work the compiler must keep: it calls 'slot_ok', whose body is not visible and which is not known to be pure
#endif

#ifndef WANT_VERIFY
#define MUST(x) (void)(x)
// CHECK-MESSAGES: :[[@LINE-1]]:9: warning: disabled assert 'MUST' still evaluates its argument; make it type-check the argument without evaluating it [hotpath-noop-assert]
#else
#define MUST(x) ((x) ? (void)0 : __builtin_trap())
#endif

/* Not asserts: the other side does not test its parameter, ... */
#ifdef TRACE
#define TRACE_VAL(x) (void)printf("%d\n", (x))
#else
#define TRACE_VAL(x) (void)(x)
#endif

/* ... or both definitions sit on the same side. */
#ifndef KEEP_OFF
#define KEEP(x) do { if (!(x)) abort(); } while (0)
#undef KEEP
#define KEEP(x) (void)(x)
#endif

int slot_ok(int slot); /* in another file: a call the compiler must keep */

int pick(int slot)
{
	CHECK_ARG(slot_ok(slot), "slot");
	MUST(slot_ok(slot + 1));
	// CHECK-MESSAGES: :[[@LINE-1]]:2: note: its use here does work the compiler must keep: it calls 'slot_ok', whose body is not visible and which is not known to be pure
	TRACE_VAL(slot_ok(slot));
	KEEP(slot_ok(slot));
	return slot;
}
