// hotpath-options: HookFunctions=copy_allowed
// Named by the rules, a weak default is a hook (the control of
// weak-default-explain.c): its calls are gated.
#include <stdbool.h>

__attribute__((weak)) bool copy_allowed(const void *src, unsigned long size)
{
	(void)src;
	(void)size;
	return true;
}

int copy_all(const void **srcs, int n)
{
	int copied = 0;

	for (int i = 0; i < n; i++)
		if (copy_allowed(srcs[i], 8))
		// CHECK-MESSAGES: :[[@LINE-1]]:7: warning: hot call to hook 'copy_allowed', which does nothing unless switched on; test an inline gate first so the disabled case makes no call [hotpath-hook-gate]
		// CHECK-MESSAGES: :[[@LINE-14]]:28: note: 'copy_allowed' is a hook: the rule set names it as a hook
		// CHECK-MESSAGES: :[[@LINE-15]]:28: note: no fix: the hook tests no switch of its own, and nothing names what switches it on: a new gate would keep it off until something calls copy_allowed_gate_enable(); name that caller in the rule set (hook_functions: enabled_by) or the HookEnablers option, or set NewGateWithSetters
			copied++;
	return copied;
}
