// hotpath-args: -std=c11
// hotpath-options: CheckFunctionCalls=true
// A call whose body is visible and only reads is no side effect, even where
// calls the compiler cannot see are (CheckFunctionCalls): the helpers read
// through a static inline byte swap, and walk an array in a loop.
#include <stdint.h>

#define ASSERT(x) (void)(x)
// CHECK-MESSAGES: :[[@LINE-1]]:9: warning: disabled assert 'ASSERT' still evaluates its argument; make it type-check the argument without evaluating it [hotpath-noop-assert]

static inline uint32_t be32(uint32_t v) { return __builtin_bswap32(v); }

static inline int sorted(const uint32_t *a, int n)
{
	for (int i = 1; i < n; i++)
		if (be32(a[i - 1]) > be32(a[i]))
			return 0;
	return 1;
}

int lookup(const uint32_t *a, int n, int i)
{
	ASSERT(sorted(a, n));
	// CHECK-MESSAGES: :[[@LINE-1]]:2: note: its use here does work the compiler must keep: it calls 'sorted', which runs a loop
	ASSERT(i < n && be32(a[i]) != 0);
	return (int)be32(a[i]);
}
