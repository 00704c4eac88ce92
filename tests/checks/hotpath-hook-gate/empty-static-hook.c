// An empty static noinline trace hook called in a loop: the gate lives in
// this file (static, with static inline setters); the caller is cloned.
struct item { int key; int val; };

static __attribute__((noinline)) void trace_lookup(const struct item *it, int key)
{
	(void)it;
	(void)key;
}

int lookup(const struct item *items, int n, int key)
{
	int i;

	for (i = 0; i < n; i++) {
		trace_lookup(&items[i], key);
		if (items[i].key == key)
			return items[i].val;
	}
	return -1;
}
