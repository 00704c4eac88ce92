/* The object cache: a singly linked freelist refilled one slab at a time. */
#include <stdlib.h>

#include "slab.h"

int kmem_cache_init(struct kmem_cache *s, unsigned int size, unsigned int per_slab)
{
	s->freelist = NULL;
	s->allocated = 0;
	s->failed = 0;
	s->size = size < sizeof(void *) ? (unsigned int)sizeof(void *) : size;
	s->size = (s->size + (unsigned int)sizeof(void *) - 1) & ~((unsigned int)sizeof(void *) - 1);
	s->per_slab = per_slab ? per_slab : 1;
	s->nr_slabs = 0;
	s->max_slabs = 16;
	s->slabs = (void **)malloc(s->max_slabs * sizeof(void *));
	return s->slabs ? 0 : -1;
}

void kmem_cache_destroy(struct kmem_cache *s)
{
	unsigned int i;

	for (i = 0; i < s->nr_slabs; i++)
		free(s->slabs[i]);
	free(s->slabs);
	s->slabs = NULL;
	s->freelist = NULL;
}

/* Slow path: carve a new slab into free objects, then allocate from it. */
static __attribute__((noinline)) void *alloc_from_new_slab(struct kmem_cache *s)
{
	char *slab;
	unsigned int i;

	if (s->nr_slabs == s->max_slabs) {
		void **more = (void **)realloc(s->slabs, 2 * s->max_slabs * sizeof(void *));

		if (!more)
			return NULL;
		s->slabs = more;
		s->max_slabs *= 2;
	}
	slab = (char *)malloc((size_t)s->size * s->per_slab);
	if (!slab)
		return NULL;
	s->slabs[s->nr_slabs++] = slab;
	for (i = 0; i + 1 < s->per_slab; i++)
		*(void **)(slab + (size_t)i * s->size) = slab + (size_t)(i + 1) * s->size;
	*(void **)(slab + (size_t)i * s->size) = NULL;
	s->freelist = *(void **)slab;
	s->allocated++;
	return slab;
}

void *kmem_cache_alloc(struct kmem_cache *s, unsigned int flags)
{
	void *obj;

	if (should_fail_alloc_gate_enabled() && should_fail_alloc(s, flags)) {
		s->failed++;
		return NULL;
	}
	obj = s->freelist;
	if (unlikely(!obj))
		return alloc_from_new_slab(s);
	s->freelist = *(void **)obj;
	s->allocated++;
	return obj;
}

void kmem_cache_free(struct kmem_cache *s, void *obj)
{
	*(void **)obj = s->freelist;
	s->freelist = obj;
	s->allocated--;
}
