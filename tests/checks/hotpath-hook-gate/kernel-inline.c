// hotpath-options: RuleSet=linux-kernel; CloneCallers=true
// A __fastpath_inline caller (mm/slub.c's slab_pre_alloc_hook) with
// cloning asked for: a cold noinline copy would conflict with its inline
// attribute, so the call is gated in place, as the mm patch does, with
// the static key the rule set spells and names the enabler of.
#include "kernel-inline.h"

static __fastpath_inline void *slab_pre_alloc_hook(struct kmem_cache *s, gfp_t flags)
{
	if (should_failslab(s, flags))
	// CHECK-MESSAGES: :[[@LINE-1]]:6: warning: hot call to hook 'should_failslab', which does nothing unless switched on; test an inline gate first so the disabled case makes no call [hotpath-hook-gate]
	// CHECK-MESSAGES: kernel-inline.h:19:5: note: 'should_failslab' is a hook: the rule set names it as a hook that returns 0 while it does nothing
	// CHECK-MESSAGES: :[[@LINE-5]]:32: note: the call is gated in place: the caller is inline or hot, and a cold noinline copy would conflict with its attributes, so 'slab_pre_alloc_hook' is not cloned
	// CHECK-MESSAGES: kernel-inline.h:19:5: note: the new gate starts off: the failslab fault attribute and fail_function (ALLOW_ERROR_INJECTION) must call should_failslab_gate_enable(), or the hook stays quiet
		return NULL;
	return s;
}

void *slab_alloc(struct kmem_cache *s, gfp_t flags)
{
	void *obj;

	if (!slab_pre_alloc_hook(s, flags))
		return NULL;
	obj = s->freelist;
	if (obj)
		s->freelist = *(void **)obj;
	return obj;
}
