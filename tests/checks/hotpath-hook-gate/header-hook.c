// hotpath-options: HookEnablers=should_fail_req=req_fault_setup()
// The hook is declared in a header and defined here with external linkage:
// the header gets the gate's declaration and accessor, this file its
// definition and setters, and the hot call its gate, in place; the option
// names what switches the hook on, and the note says it must call the setter.
#include "header-hook.h"

__attribute__((noinline)) bool should_fail_req(const struct req *r)
{
// CHECK-MESSAGES: :[[@LINE-2]]:32: warning: hook 'should_fail_req' is called out of line even while it does nothing; define its gate here, next to it [hotpath-hook-gate]
// CHECK-MESSAGES: :[[@LINE-3]]:32: note: 'should_fail_req' is a hook: its body only returns false in this configuration, and it is kept out of line (noinline)
	(void)r;
	return false;
}

int submit_req(struct req *r)
{
	if (should_fail_req(r))
	// CHECK-MESSAGES: :[[@LINE-1]]:6: warning: hot call to hook 'should_fail_req', which does nothing unless switched on; test an inline gate first so the disabled case makes no call [hotpath-hook-gate]
	// CHECK-MESSAGES: header-hook.h:7:6: note: 'should_fail_req' is a hook: its body only returns false in this configuration, and it is kept out of line (noinline)
	// CHECK-MESSAGES: header-hook.h:7:6: note: the new gate starts off: req_fault_setup() must call should_fail_req_gate_enable(), or the hook stays quiet
		return -12;
	r->flags |= 1;
	return 0;
}

int submit_all(struct req *rs, int n)
{
	int i, done = 0;

	for (i = 0; i < n; i++)
		done += submit_req(&rs[i]) == 0;
	return done;
}
