#ifndef SLAB_H
#define SLAB_H
/* mm/slab.h: the allocator's internal hooks, static inline, in every file
 * of the allocator that includes it. */
#include "fault-inject.h"
#include <stddef.h>

struct kmem_cache {
	void **freelist;
	unsigned int size, used, cap;
};

static inline struct kmem_cache *slab_pre_alloc_hook(struct kmem_cache *s, unsigned int flags)
{
	if (should_failslab(s, flags))
		return NULL;
	return s;
}

struct kmem_cache *kmem_cache_create(unsigned int size, unsigned int cap);
void *kmem_cache_alloc(struct kmem_cache *s, unsigned int flags);
void kmem_cache_free(struct kmem_cache *s, void *obj);
#endif
