// hotpath-options: HookFunctions=remote_hook
// No fix, with a note: an argument with a side effect the gate would skip,
// and a hook from another file whose disabled value the rule set does not give.
int remote_hook(int x);

static __attribute__((noinline)) int local_hook(int x)
{
	(void)x;
	return 0;
}

int sum(int *a, int n)
{
	int i, s = 0;

	for (i = 0; i < n; i++)
		s += local_hook(a[i]++);
	return s;
}

int total(int *a, int n)
{
	int i, s = 0;

	for (i = 0; i < n; i++)
		s += remote_hook(a[i]);
	return s;
}
