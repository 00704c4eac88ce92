// hotpath-options: RuleSet=linux-kernel
// The linux-kernel rule set names should_failslab() (body in another file)
// and spells the gate as a static key.
#include "kernel.h"

void *slab_alloc(struct kmem_cache *s, gfp_t flags)
{
	void *obj;

	if (unlikely(should_failslab(s, flags)))
		return NULL;
	obj = s->freelist;
	if (obj)
		s->freelist = *(void **)obj;
	return obj;
}
