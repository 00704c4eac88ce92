#include "slab.h"
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	struct kmem_cache *s = kmem_cache_create(32, 8);
	int rounds = argc > 1 ? atoi(argv[1]) : 1000;
	int i, failed = 0;

	if (argc > 2)
		fault_setup(atoi(argv[2]));
	for (i = 0; i < rounds; i++) {
		void *obj = kmem_cache_alloc(s, 0);

		if (!obj)
			failed++;
		else
			kmem_cache_free(s, obj);
	}
	printf("%d allocations, %d failed\n", rounds, failed);
	return failed != 0;
}
