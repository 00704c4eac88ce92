#ifndef FAULT_INJECT_H
#define FAULT_INJECT_H
/* include/linux/fault-inject.h: the slab allocator's fault-injection hook. */
#include <stdbool.h>

struct kmem_cache;

int should_failslab(struct kmem_cache *s, unsigned int flags);
void fault_setup(int every);
#endif
