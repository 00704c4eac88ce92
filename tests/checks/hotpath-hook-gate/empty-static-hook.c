// hotpath-options: CloneCallers=true; NewGateWithSetters=true
// An empty static noinline hook in a loop: a static gate here; the caller cloned.
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
		// CHECK-MESSAGES: :[[@LINE-1]]:3: warning: hot call to hook 'trace_lookup', which does nothing unless switched on; test an inline gate first so the disabled case makes no call [hotpath-hook-gate]
		// CHECK-MESSAGES: :[[@LINE-13]]:39: note: 'trace_lookup' is a hook: its body is empty in this configuration, and it is kept out of line (noinline)
		// CHECK-MESSAGES: :[[@LINE-8]]:5: note: the gate is tested on entry to 'lookup', which tail-calls a cold copy of itself, 'lookup_hooked', while the hook is on, so its fast path makes no call
		// CHECK-MESSAGES: :[[@LINE-15]]:39: note: the new gate starts off: nothing in the program calls trace_lookup_gate_enable() yet; whatever switches the hook on must, or the hook stays quiet
		if (items[i].key == key)
			return items[i].val;
	}
	return -1;
}
