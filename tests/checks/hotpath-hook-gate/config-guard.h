#ifndef CONFIG_GUARD_H
#define CONFIG_GUARD_H
#include <stdbool.h>

#ifndef NO_HOOKS
bool trace_hook(int op, unsigned long arg);
// CHECK-MESSAGES: :[[@LINE-1]]:6: warning: hook 'trace_hook' has no inline gate; declare one next to it, off by default, with setters to switch the hook on at run time [hotpath-hook-gate]
// CHECK-MESSAGES: config-guard.c:26:7: note: the gate is for this hot call and the others in this file
#else
static inline bool trace_hook(int op, unsigned long arg)
{
	(void)op;
	(void)arg;
	return false;
}
#endif

int process(const unsigned long *args, int n);

#endif
