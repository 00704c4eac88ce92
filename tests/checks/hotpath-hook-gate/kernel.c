// hotpath-options: RuleSet=linux-kernel
// The linux-kernel rule set names should_failslab() (body in another file)
// and spells the gate as a static key.
#include "kernel.h"

void *slab_alloc(struct kmem_cache *s, gfp_t flags)
{
	void *obj;

	if (unlikely(should_failslab(s, flags)))
	// CHECK-MESSAGES: :[[@LINE-1]]:15: warning: hot call to hook 'should_failslab', which does nothing unless switched on; test an inline gate first so the disabled case makes no call [hotpath-hook-gate]
	// CHECK-MESSAGES: kernel.h:12:41: note: expanded from macro 'unlikely'
	// CHECK-MESSAGES: kernel.h:18:5: note: 'should_failslab' is a hook: the rule set names it as a hook that returns 0 while it does nothing
	// CHECK-MESSAGES: kernel.h:18:5: note: the new gate starts off: the failslab fault attribute and fail_function (ALLOW_ERROR_INJECTION) must call should_failslab_gate_enable(), or the hook stays quiet
		return NULL;
	obj = s->freelist;
	if (obj)
		s->freelist = *(void **)obj;
	return obj;
}
