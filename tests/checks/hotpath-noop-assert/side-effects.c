// hotpath-args: -std=c11
// Uses whose argument has a side effect are reported and keep the definition
// as it is; macros that must evaluate (WARN_ON) are never touched.
#include <stdio.h>

#define ASSERT(x) (void)(x)
// CHECK-MESSAGES: :[[@LINE-1]]:9: warning: disabled assert 'ASSERT' still evaluates its argument; make it type-check the argument without evaluating it [hotpath-noop-assert]
// CHECK-MESSAGES: :[[@LINE+28]]:2: note: 3 of its 3 uses in this translation unit do work the compiler must keep; the first, here: it calls 'push', which assigns to 'l->items[l->len++]'
// CHECK-MESSAGES: :[[@LINE-3]]:9: note: no fix: 3 uses of 'ASSERT' in this translation unit need the argument evaluated
#define DCHECK(x) ((void)(x))
// CHECK-MESSAGES: :[[@LINE-1]]:9: warning: disabled assert 'DCHECK' still evaluates its argument; make it type-check the argument without evaluating it [hotpath-noop-assert]
// CHECK-MESSAGES: :[[@LINE+31]]:2: note: its use here does work the compiler must keep: it calls 'sum', which runs a loop
#define WARN_ON(x) ((void)(x))

struct list { int len; int items[16]; };

static int push(struct list *l, int v)
{
	if (l->len == 16)
		return 0;
	l->items[l->len++] = v;
	return 1;
}

static int sum(const struct list *l)
{
	int s = 0;
	for (int i = 0; i < l->len; i++)
		s += l->items[i];
	return s;
}

int use(struct list *l, int n)
{
	int seen = 0;
	ASSERT(push(l, n));
	// CHECK-MESSAGES: :[[@LINE-1]]:2: warning: argument of 'ASSERT' has a side effect (it calls 'push', which assigns to 'l->items[l->len++]'); a disabled 'ASSERT' that does not evaluate its argument would lose it, so the definition of 'ASSERT' is not rewritten [hotpath-noop-assert]
	// CHECK-MESSAGES: :[[@LINE-17]]:2: note: the state changes here
	ASSERT(seen++ == 0);
	// CHECK-MESSAGES: :[[@LINE-1]]:2: warning: argument of 'ASSERT' has a side effect (it increments 'seen'); a disabled 'ASSERT' that does not evaluate its argument would lose it, so the definition of 'ASSERT' is not rewritten [hotpath-noop-assert]
	ASSERT((seen = n) > 0);
	// CHECK-MESSAGES: :[[@LINE-1]]:2: warning: argument of 'ASSERT' has a side effect (it assigns to 'seen'); a disabled 'ASSERT' that does not evaluate its argument would lose it, so the definition of 'ASSERT' is not rewritten [hotpath-noop-assert]
	DCHECK(sum(l) >= 0);
	WARN_ON(n-- < 0);
	return seen + n;
}
