// hotpath-options: RuleSet=linux-kernel
// mm/failslab.c and mm/slub.c in one file: the key is defined beside the
// hook, declared beside its declaration in the header, and the call site
// tests it first, as the mm patch does; the note names the enabler the
// rule set gives. Nothing is cloned.
#include "kernel-def.h"

noinline int should_failslab(struct kmem_cache *s, gfp_t gfpflags)
{
// CHECK-MESSAGES: :[[@LINE-2]]:14: warning: hook 'should_failslab' is called out of line even while it does nothing; define its gate here, next to it [hotpath-hook-gate]
// CHECK-MESSAGES: :[[@LINE-3]]:14: note: 'should_failslab' is a hook: the rule set names it as a hook that returns 0 while it does nothing
	(void)s;
	(void)gfpflags;
	return 0;
}
ALLOW_ERROR_INJECTION(should_failslab, ERRNO);

void *slab_alloc(struct kmem_cache *s, gfp_t flags)
{
	void *obj;

	if (should_failslab(s, flags))
	// CHECK-MESSAGES: :[[@LINE-1]]:6: warning: hot call to hook 'should_failslab', which does nothing unless switched on; test an inline gate first so the disabled case makes no call [hotpath-hook-gate]
	// CHECK-MESSAGES: kernel-def.h:19:5: note: 'should_failslab' is a hook: the rule set names it as a hook that returns 0 while it does nothing
	// CHECK-MESSAGES: kernel-def.h:19:5: note: the new gate starts off: the failslab fault attribute and fail_function (ALLOW_ERROR_INJECTION) must call should_failslab_gate_enable(), or the hook stays quiet
		return NULL;
	obj = s->freelist;
	if (obj)
		s->freelist = *(void **)obj;
	return obj;
}
