// hotpath-args: -std=c11
// Uses whose argument has a side effect are reported and keep the definition
// as it is; macros that must evaluate (WARN_ON) are never touched.
#include <stdio.h>

#define ASSERT(x) (void)(x)
#define DCHECK(x) ((void)(x))
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
	ASSERT(seen++ == 0);
	ASSERT((seen = n) > 0);
	DCHECK(sum(l) >= 0);
	WARN_ON(n-- < 0);
	return seen + n;
}
