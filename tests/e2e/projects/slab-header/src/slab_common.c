/* mm/slab_common.c: the hook's body and the fault attribute that switches
 * it on. */
#include "slab.h"
#include <stdlib.h>

static int fail_every;
static unsigned long calls;

void fault_setup(int every)
{
	fail_every = every;
}

int should_failslab(struct kmem_cache *s, unsigned int flags)
{
	(void)s;
	(void)flags;
	if (fail_every && ++calls % (unsigned long)fail_every == 0)
		return -12;
	return 0;
}

struct kmem_cache *kmem_cache_create(unsigned int size, unsigned int cap)
{
	struct kmem_cache *s = calloc(1, sizeof(*s));
	unsigned int i;

	if (!s)
		return NULL;
	s->freelist = calloc(cap, sizeof(void *));
	for (i = 0; s->freelist && i < cap; i++)
		s->freelist[i] = malloc(size);
	s->size = size;
	s->cap = cap;
	return s;
}
