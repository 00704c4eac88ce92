// hotpath-options: RuleSet=linux-kernel
// mm/slab_common.c (issue 26): it defines should_failslab() and includes
// mm/slab.h, whose static inline slab_pre_alloc_hook() makes the one hot
// call, on every slab allocation. The fix gates that call in the header,
// as the upstream patch "mm, slab: add static key for should_failslab()"
// does, declares the key in the hook's header and defines it here; it
// made the gate before and gated no call.
#include "kernel-header-call.h"

int should_failslab(struct kmem_cache *s, gfp_t gfpflags)
{
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: hook 'should_failslab' is called out of line even while it does nothing; define its gate here, next to it [hotpath-hook-gate]
// CHECK-MESSAGES: :[[@LINE-3]]:5: note: 'should_failslab' is a hook: the rule set names it as a hook that returns 0 while it does nothing
	(void)s;
	(void)gfpflags;
	return 0;
}
ALLOW_ERROR_INJECTION(should_failslab, ERRNO);

unsigned int kmem_cache_size(struct kmem_cache *s)
{
	return s->size;
}
