// hotpath-options: NewGateWithSetters=true
// hotpath-configurations: -DUNTESTABLE
// SQLite's benign-malloc hooks: declared under #ifndef UNTESTABLE, empty
// macros with it. Gated in place, each call keeps braces, so the UNTESTABLE
// build's "if (gate) ;" does not trip -Wempty-body; outside a block the
// gated call is a braced statement of its own.
#include "config-empty-macro.h"

#ifndef UNTESTABLE
__attribute__((noinline)) void begin_benign(void)
{
// CHECK-MESSAGES: :[[@LINE-2]]:32: warning: hook 'begin_benign' is called out of line even while it does nothing; define its gate here, next to it [hotpath-hook-gate]
// CHECK-MESSAGES: :[[@LINE-3]]:32: note: 'begin_benign' is a hook: its body is empty in this configuration, and it is kept out of line (noinline)
}
#endif

void *resize(void *p, unsigned long n, int grow)
{
	begin_benign();
	// CHECK-MESSAGES: :[[@LINE-1]]:2: warning: hot call to hook 'begin_benign', which does nothing unless switched on; test an inline gate first so the disabled case makes no call [hotpath-hook-gate]
	// CHECK-MESSAGES: config-empty-macro.h:5:6: note: 'begin_benign' is a hook: its body is empty in this configuration, and it is kept out of line (noinline)
	p = grow_buffer(p, n);
	if (grow)
		begin_benign();
		// CHECK-MESSAGES: :[[@LINE-1]]:3: note: another call to 'begin_benign' in 'resize', gated by the same fix
		// CHECK-MESSAGES: config-empty-macro.h:5:6: note: the new gate starts off: nothing in the program calls begin_benign_gate_enable() yet; whatever switches the hook on must, or the hook stays quiet
	else
		n = 0;
	return n ? p : 0;
}

/* resize's callers make it hot: it is called in a loop. */
void resize_all(void **ps, int n)
{
	for (int i = 0; i < n; i++)
		ps[i] = resize(ps[i], 64, 1);
}
