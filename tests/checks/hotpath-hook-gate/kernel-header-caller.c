// hotpath-options: RuleSet=linux-kernel
// mm/slub.c (issue 26): the hook is defined in another file; its hot call
// is in mm/slab.h's static inline slab_pre_alloc_hook(), which this file
// includes. The call is gated in the header and the key declared next to
// the hook's declaration; the file that defines the hook defines the key
// (kernel-header-call.c). Every TU that includes both headers makes the
// same two header edits, which a run over the project applies once.
#include "kernel-header-caller.h"

void *slab_alloc(struct kmem_cache *s, gfp_t flags)
{
	void *obj;

	s = slab_pre_alloc_hook(s, flags);
	if (!s)
		return NULL;
	obj = s->freelist;
	if (obj)
		s->freelist = *(void **)obj;
	return obj;
}
