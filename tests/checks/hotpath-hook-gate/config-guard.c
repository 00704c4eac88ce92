// hotpath-options: NewGateWithSetters=true
// hotpath-configurations: -DNO_HOOKS
// The hook is declared under #ifndef NO_HOOKS; with NO_HOOKS the header has
// an inline stand-in, and the calls stay as they are. The gate goes next
// to the declaration, and the #else gets a gate that is always on (the
// call is made as before, to whatever trace_hook is there), so the
// NO_HOOKS build compiles and behaves as it did.
#include "config-guard.h"

#ifndef NO_HOOKS
__attribute__((noinline)) bool trace_hook(int op, unsigned long arg)
{
// CHECK-MESSAGES: :[[@LINE-2]]:32: warning: hook 'trace_hook' is called out of line even while it does nothing; define its gate here, next to it [hotpath-hook-gate]
// CHECK-MESSAGES: :[[@LINE-3]]:32: note: 'trace_hook' is a hook: its body only returns false in this configuration, and it is kept out of line (noinline)
	(void)op;
	(void)arg;
	return false;
}
#endif

int process(const unsigned long *args, int n)
{
	int traced = 0;

	for (int i = 0; i < n; i++) {
		if (trace_hook(1, args[i]))
		// CHECK-MESSAGES: :[[@LINE-1]]:7: warning: hot call to hook 'trace_hook', which does nothing unless switched on; test an inline gate first so the disabled case makes no call [hotpath-hook-gate]
		// CHECK-MESSAGES: config-guard.h:6:6: note: 'trace_hook' is a hook: its body only returns false in this configuration, and it is kept out of line (noinline)
		// CHECK-MESSAGES: config-guard.h:6:6: note: the new gate starts off: nothing in the program calls trace_hook_gate_enable() yet; whatever switches the hook on must, or the hook stays quiet
			traced++;
		if (args[i] > 1000)
			traced += 2;
	}
	return traced;
}
