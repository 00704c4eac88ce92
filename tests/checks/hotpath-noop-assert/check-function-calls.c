// hotpath-args: -std=c11
// hotpath-options: CheckFunctionCalls=true
// With CheckFunctionCalls, a call whose body is not visible and which is not
// known to be pure is a side effect; pure and const ones are not.
#include <string.h>

#define ASSERT(x) (void)(x)
#define DCHECK(x) (void)(x)

int opaque(int);
__attribute__((pure)) int pure_len(const char *);

int f(const char *s, int n)
{
	ASSERT(opaque(n));
	DCHECK(strlen(s) > 0 && pure_len(s) > 0);
	return n;
}
