/* mm/slub.c: the allocation path, through mm/slab.h's hooks. */
#include "slab.h"

void *kmem_cache_alloc(struct kmem_cache *s, unsigned int flags)
{
	s = slab_pre_alloc_hook(s, flags);
	if (!s || s->used == s->cap)
		return NULL;
	return s->freelist[s->used++];
}

void kmem_cache_free(struct kmem_cache *s, void *obj)
{
	s->freelist[--s->used] = obj;
}
