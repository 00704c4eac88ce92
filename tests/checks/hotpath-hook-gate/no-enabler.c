// An empty noinline hook with no switch of its own, and nothing that names
// what switches it on (a tracer, error injection, a replacement at link
// time): a new gate would start off and silence it, so no fix, with a note
// saying what would have to call the setter.
struct item { int key; int val; };

__attribute__((noinline)) void trace_lookup(const struct item *it)
{
	(void)it;
}

int lookup(const struct item *items, int n, int key)
{
	int i;

	for (i = 0; i < n; i++) {
		trace_lookup(&items[i]);
		// CHECK-MESSAGES: :[[@LINE-1]]:3: warning: hot call to hook 'trace_lookup', which does nothing unless switched on; test an inline gate first so the disabled case makes no call [hotpath-hook-gate]
		// CHECK-MESSAGES: :[[@LINE-12]]:32: note: 'trace_lookup' is a hook: its body is empty in this configuration, and it is kept out of line (noinline)
		// CHECK-MESSAGES: :[[@LINE-13]]:32: note: no fix: the hook tests no switch of its own, and nothing names what switches it on: a new gate would keep it off until something calls trace_lookup_gate_enable(); name that caller in the rule set (hook_functions: enabled_by) or the HookEnablers option, or set NewGateWithSetters
		if (items[i].key == key)
			return items[i].val;
	}
	return -1;
}
