#ifndef KERNEL_HEADER_CALLER_H
#define KERNEL_HEADER_CALLER_H
/* mm/slab.h: the allocators' hooks, static inline, in every mm/ file that
 * includes it. */
#include "kernel-header-caller.fault.h"

static inline struct kmem_cache *slab_pre_alloc_hook(struct kmem_cache *s, gfp_t flags)
{
	if (should_failslab(s, flags))
	// CHECK-MESSAGES: :[[@LINE-1]]:6: warning: hot call to hook 'should_failslab', which does nothing unless switched on; test an inline gate first so the disabled case makes no call [hotpath-hook-gate]
	// CHECK-MESSAGES: kernel-header-caller.fault.h:17:5: note: 'should_failslab' is a hook: the rule set names it as a hook that returns 0 while it does nothing
	// CHECK-MESSAGES: kernel-header-caller.fault.h:17:5: note: the new gate starts off: the failslab fault attribute and fail_function (ALLOW_ERROR_INJECTION) must call should_failslab_gate_enable(), or the hook stays quiet
		return NULL;
	return s;
}
#endif
