// hotpath-options: HookFunctions=remote_hook; NewGateWithSetters=true
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
		// CHECK-MESSAGES: :[[@LINE-1]]:8: warning: hot call to hook 'local_hook', which does nothing unless switched on; test an inline gate first so the disabled case makes no call [hotpath-hook-gate]
		// CHECK-MESSAGES: :[[@LINE-13]]:38: note: 'local_hook' is a hook: its body only returns 0 in this configuration, and it is kept out of line (noinline)
		// CHECK-MESSAGES: :[[@LINE-3]]:19: note: no fix: the call's arguments have a side effect (it increments) that the gate would skip
	return s;
}

int total(int *a, int n)
{
	int i, s = 0;

	for (i = 0; i < n; i++)
		s += remote_hook(a[i]);
		// CHECK-MESSAGES: :[[@LINE-1]]:8: warning: hot call to hook 'remote_hook', which does nothing unless switched on; test an inline gate first so the disabled case makes no call [hotpath-hook-gate]
		// CHECK-MESSAGES: :[[@LINE-27]]:5: note: 'remote_hook' is a hook: the rule set names it as a hook
		// CHECK-MESSAGES: :[[@LINE-3]]:8: note: no fix: the value the hook returns while it does nothing is unknown; name it in the rule set (hook_functions: {name, disabled}) or the HookFunctions option
	return s;
}
