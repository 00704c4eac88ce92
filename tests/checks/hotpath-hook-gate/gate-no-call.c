// hotpath-options: HookEnablers=should_fail_req=req_fault_setup()
// No gate without its calls (issue 26): the hook is declared in a header
// and defined here, and its one hot call cannot be gated (its argument has
// a side effect the gate would skip). A gate declared in the header and
// defined here with its setters would test nothing: no fix, with a note,
// and no edit anywhere.
#include "gate-no-call.h"

__attribute__((noinline)) bool should_fail_req(struct req *r)
{
// CHECK-MESSAGES: :[[@LINE-2]]:32: warning: hook 'should_fail_req' is called out of line even while it does nothing; define its gate here, next to it [hotpath-hook-gate]
// CHECK-MESSAGES: :[[@LINE-3]]:32: note: 'should_fail_req' is a hook: its body only returns false in this configuration, and it is kept out of line (noinline)
// CHECK-MESSAGES: :[[@LINE-4]]:32: note: no fix: no hot call of 'should_fail_req' can be gated here; a gate that gates no call only costs
	(void)r;
	return false;
}

int submit_all(struct req *rs, int n)
{
	int done = 0;

	while (n > 0)
		if (!should_fail_req(&rs[--n]))
		// CHECK-MESSAGES: :[[@LINE-1]]:8: warning: hot call to hook 'should_fail_req', which does nothing unless switched on; test an inline gate first so the disabled case makes no call [hotpath-hook-gate]
		// CHECK-MESSAGES: gate-no-call.h:7:6: note: 'should_fail_req' is a hook: its body only returns false in this configuration, and it is kept out of line (noinline)
		// CHECK-MESSAGES: :[[@LINE-3]]:28: note: no fix: the call's arguments have a side effect (it decrements) that the gate would skip
			done++;
	return done;
}
