// hotpath-args: -std=c11
// hotpath-options: CheckFunctionCalls=true
// With CheckFunctionCalls, a call whose body is not visible and which is not
// known to be pure is a side effect; pure and const ones are not, and cost
// nothing either (the compiler drops them), so DCHECK, which only ever tests
// pure calls, is not reported.
#include <string.h>

#define ASSERT(x) (void)(x)
// CHECK-MESSAGES: :[[@LINE-1]]:9: warning: disabled assert 'ASSERT' still evaluates its argument; make it type-check the argument without evaluating it [hotpath-noop-assert]
// CHECK-MESSAGES: :[[@LINE+9]]:2: note: its use here does work the compiler must keep: it calls 'opaque', whose body is not visible and which is not known to be pure
// CHECK-MESSAGES: :[[@LINE-3]]:9: note: no fix: 1 use of 'ASSERT' in this translation unit needs the argument evaluated
#define DCHECK(x) (void)(x)

int opaque(int);
__attribute__((pure)) int pure_len(const char *);

int f(const char *s, int n)
{
	ASSERT(opaque(n));
	// CHECK-MESSAGES: :[[@LINE-1]]:2: warning: argument of 'ASSERT' has a side effect (it calls 'opaque', whose body is not visible and which is not known to be pure); a disabled 'ASSERT' that does not evaluate its argument would lose it, so the definition of 'ASSERT' is not rewritten [hotpath-noop-assert]
	DCHECK(strlen(s) > 0 && pure_len(s) > 0);
	return n;
}
