// hotpath-options: NewGateWithSetters=true
// A hook call whose heat is exactly HookThreshold (2): one call to the hook,
// in a caller called once, itself called from a loop further up. At the
// threshold counts as hot (issue 24: '<' made '<=' went unnoticed).
#include <stdio.h>

__attribute__((noinline)) void trace_step(int step)
{
	(void)step;
}

static int step(int x)
{
	trace_step(x);
	// CHECK-MESSAGES: :[[@LINE-1]]:2: warning: hot call to hook 'trace_step', which does nothing unless switched on; test an inline gate first so the disabled case makes no call [hotpath-hook-gate]
	// CHECK-MESSAGES: :[[@LINE-9]]:32: note: 'trace_step' is a hook: its body is empty in this configuration, and it is kept out of line (noinline)
	// CHECK-MESSAGES: :[[@LINE-10]]:32: note: the new gate starts off: nothing in the program calls trace_step_gate_enable() yet; whatever switches the hook on must, or the hook stays quiet
	return x * 3 + 1;
}

static int advance(int x)
{
	return step(x) % 1000;
}

int main(void)
{
	int x = 1;

	for (int i = 0; i < 1000; i++)
		x = advance(x);
	printf("%d\n", x);
	return 0;
}
