/* Fault-injection hooks.  Without CONFIG_FAIL_ALLOC, should_fail_alloc() is
 * empty, but every allocation still pays for the call. */
#include "slab.h"

#ifdef CONFIG_FAIL_ALLOC
static unsigned long fail_every;
static unsigned long fail_count;
#endif

void fault_inject_setup(unsigned long every)
{
#ifdef CONFIG_FAIL_ALLOC
	fail_every = every;
	fail_count = 0;
#else
	(void)every;
#endif
}

atomic_bool should_fail_alloc_gate;

void should_fail_alloc_gate_enable(void)
{
	atomic_store(&should_fail_alloc_gate, true);
}

void should_fail_alloc_gate_disable(void)
{
	atomic_store(&should_fail_alloc_gate, false);
}

__attribute__((noinline)) bool should_fail_alloc(struct kmem_cache *s, unsigned int flags)
{
	(void)s;
	(void)flags;
#ifdef CONFIG_FAIL_ALLOC
	if (fail_every && !(flags & GFP_NOFAIL) && ++fail_count % fail_every == 0)
		return true;
#endif
	return false;
}
