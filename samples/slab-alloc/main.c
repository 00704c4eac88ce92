/*
 * Workload for the slab-like cache.
 *
 *   slab [OPS [SEED [FAIL_EVERY]]]
 *
 * Keeps a ring of live objects: each step frees the oldest and allocates a
 * new one.  FAIL_EVERY=N (only in a build with CONFIG_FAIL_ALLOC) makes the
 * fault-injection hook fail every Nth allocation; each failure is printed as
 * "fail STEP" so runs can be compared failure by failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slab.h"

#define RING 64u

int main(int argc, char **argv)
{
	static void *ring[RING];
	struct kmem_cache cache;
	unsigned long ops = 300000, every = 0, i, fails = 0;
	unsigned long long seed = 1, x, sum = 0;

	if (argc > 1)
		ops = strtoul(argv[1], NULL, 0);
	if (argc > 2)
		seed = strtoull(argv[2], NULL, 0);
	if (argc > 3)
		every = strtoul(argv[3], NULL, 0);
	if (kmem_cache_init(&cache, 48, 32)) {
		perror("kmem_cache_init");
		return 1;
	}
	fault_inject_setup(every);
	x = seed * 0x9e3779b97f4a7c15ull + 1;
	for (i = 0; i < ops; i++) {
		unsigned int slot = (unsigned int)(i % RING);
		unsigned int flags = GFP_KERNEL;
		void *obj;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		if ((x & 15) == 0)
			flags |= GFP_NOFAIL;
		if (ring[slot])
			kmem_cache_free(&cache, ring[slot]);
		obj = kmem_cache_alloc(&cache, flags);
		ring[slot] = obj;
		if (!obj) {
			fails++;
			printf("fail %lu\n", i);
			continue;
		}
		memset(obj, (int)(x & 0xff), 8);
		sum += (unsigned long long)(x & 0xffff);
	}
	printf("ops=%lu fails=%lu failed=%lu live=%lu sum=%llu\n", ops, fails, cache.failed,
	       cache.allocated, sum);
	kmem_cache_destroy(&cache);
	return 0;
}
