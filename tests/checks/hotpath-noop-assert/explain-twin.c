// hotpath-args: -std=c11
// hotpath-options: Explain=CHECK_ARG
// Explain on a macro recognised by its twin walks every definition of the
// name, the enabled one too, which has no twin of its own (the kernel's
// lockdep_assert_held crashed here: mm/slub.c, Debian linux 6.1).
#include <stdlib.h>

int slot_ok(int slot); /* in another file: a call the compiler must keep */

#ifdef PARANOID
#define CHECK_ARG(cond) do { if (!(cond)) abort(); } while (0)
// CHECK-MESSAGES: :[[@LINE-1]]:9: remark: explain 'CHECK_ARG': a definition of macro 'CHECK_ARG' (in a branch this build skips); the steps of hotpath-noop-assert follow [hotpath-noop-assert]
// CHECK-MESSAGES: :[[@LINE-2]]:9: note: assert-like by structure: another definition of this name only evaluates its parameter, and the one on the other side of its #if tests it and reports or aborts
// CHECK-MESSAGES: :[[@LINE-3]]:9: note: its body is an enabled form (it tests its condition and reports or aborts): never touched
#else
#define CHECK_ARG(cond) ((void)(cond))
// CHECK-MESSAGES: :[[@LINE-1]]:9: warning: disabled assert 'CHECK_ARG' still evaluates its argument; make it type-check the argument without evaluating it [hotpath-noop-assert]
// CHECK-MESSAGES: :[[@LINE+12]]:3: note: its use here does work the compiler must keep: it calls 'slot_ok', whose body is not visible and which is not known to be pure
// CHECK-MESSAGES: :[[@LINE-3]]:9: remark: explain 'CHECK_ARG': a definition of macro 'CHECK_ARG' (the one this build uses); the steps of hotpath-noop-assert follow [hotpath-noop-assert]
// CHECK-MESSAGES: :[[@LINE-9]]:9: note: assert-like by structure: this definition, on the other side of the same #if, tests the same parameter and reports or aborts
// CHECK-MESSAGES: :[[@LINE-5]]:25: note: its body evaluates parameter 'cond' and does nothing else with it: disabled, it still costs what its argument costs
// CHECK-MESSAGES: :[[@LINE+8]]:3: note: 1 use(s) in this translation unit; this one's condition does work the compiler must keep: it calls 'slot_ok', whose body is not visible and which is not known to be pure
// CHECK-MESSAGES: :[[@LINE-7]]:9: note: reported, with the fix: the body becomes '((void)(0 && !!(cond)))'
#endif

int use(int *slots, int n)
{
	int sum = 0;
	for (int i = 0; i < n; i++) {
		CHECK_ARG(slot_ok(slots[i]));
		sum += slots[i];
	}
	return sum;
}
