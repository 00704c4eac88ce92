/* A slab-like object cache (shape a: the call behind a plain inline gate): every allocation asks an
 * out-of-line fault-injection hook first, as the kernel's should_failslab(). */
#ifndef SLAB_H
#define SLAB_H

#include <stdbool.h>
#include <stddef.h>

#define unlikely(x) __builtin_expect(!!(x), 0)

#define GFP_KERNEL 0x0cu
#define GFP_NOFAIL 0x10u

struct kmem_cache {
	void *freelist;		/* first free object; each free object links the next */
	unsigned long allocated;	/* objects handed out and not yet freed */
	unsigned long failed;	/* allocations refused by fault injection */
	unsigned int size;	/* object size, at least sizeof(void *) */
	unsigned int per_slab;	/* objects carved out of each new slab */
	void **slabs;		/* every slab, for kmem_cache_destroy */
	unsigned int nr_slabs, max_slabs;
};

/* Fault injection: true when this allocation must fail.  Defined in fault.c,
 * kept out of line on purpose so a fault-injection build can replace it. */
bool should_fail_alloc(struct kmem_cache *s, unsigned int flags);
#include <stdatomic.h>
/* Gate of should_fail_alloc(): off until should_fail_alloc_gate_enable(). */
extern atomic_bool should_fail_alloc_gate;
static inline bool should_fail_alloc_gate_enabled(void)
{
	return __builtin_expect(atomic_load_explicit(&should_fail_alloc_gate, memory_order_relaxed), 0);
}
void should_fail_alloc_gate_enable(void);
void should_fail_alloc_gate_disable(void);
/* Fails every Nth allocation from now on (0: never); needs CONFIG_FAIL_ALLOC. */
void fault_inject_setup(unsigned long every);

int kmem_cache_init(struct kmem_cache *s, unsigned int size, unsigned int per_slab);
void kmem_cache_destroy(struct kmem_cache *s);
void *kmem_cache_alloc(struct kmem_cache *s, unsigned int flags);
void kmem_cache_free(struct kmem_cache *s, void *obj);

#endif /* SLAB_H */
