// hotpath-args: -std=c11
// hotpath-configurations: -DCONFIG_ASSERT
// Assert macros whose only parameter is `...`, the condition spelt
// __VA_ARGS__ (issue 24: a mutation that drops the recognition of `...` as
// a parameter went unnoticed). ASSERT is one by name, SANE and HOLDS only
// by their enabled twins under the other side of the #if. The fix keeps
// __VA_ARGS__; a use whose argument has a side effect keeps the definition.
#include <stdio.h>
#include <stdlib.h>

#ifdef CONFIG_ASSERT
#define ASSERT(...) ((__VA_ARGS__) ? (void)0 : abort())
#define SANE(...) do { if (!(__VA_ARGS__)) { fprintf(stderr, "insane: %s\n", #__VA_ARGS__); abort(); } } while (0)
#define HOLDS(...) ((__VA_ARGS__) ? (void)0 : abort())
#else
#define ASSERT(...) ((void)(__VA_ARGS__))
// CHECK-MESSAGES: :[[@LINE-1]]:9: warning: disabled assert 'ASSERT' still evaluates its argument; make it type-check the argument without evaluating it [hotpath-noop-assert]
// CHECK-MESSAGES: :[[@LINE+16]]:2: note: its use here does work the compiler must keep: it calls 'slot_ok', whose body is not visible and which is not known to be pure
#define SANE(...) do { (void)(__VA_ARGS__); } while (0)
// CHECK-MESSAGES: :[[@LINE-1]]:9: warning: disabled assert 'SANE' still evaluates its argument; make it type-check the argument without evaluating it [hotpath-noop-assert]
// CHECK-MESSAGES: :[[@LINE+14]]:2: note: its use here does work the compiler must keep: it calls 'slot_ok', whose body is not visible and which is not known to be pure
#define HOLDS(...) (void)(__VA_ARGS__)
// CHECK-MESSAGES: :[[@LINE-1]]:9: warning: disabled assert 'HOLDS' still evaluates its argument; make it type-check the argument without evaluating it [hotpath-noop-assert]
// CHECK-MESSAGES: :[[@LINE+12]]:2: note: its use here does work the compiler must keep: it increments 'tries'
// CHECK-MESSAGES: :[[@LINE-3]]:9: note: no fix: 1 use of 'HOLDS' in this translation unit needs the argument evaluated
#endif

int slot_ok(int slot); /* in another file: a call the compiler must keep */

int pick(int slot)
{
	int tries = 0;

	ASSERT(slot_ok(slot));
	SANE(slot_ok(slot + 1) && slot >= 0);
	HOLDS(tries++ < 3);
	// CHECK-MESSAGES: :[[@LINE-1]]:2: warning: argument of 'HOLDS' has a side effect (it increments 'tries'); a disabled 'HOLDS' that does not evaluate its argument would lose it, so the definition of 'HOLDS' is not rewritten [hotpath-noop-assert]
	return slot + tries;
}
