/*
 * ring [OPS [SEED [BAD]]]: puts and gets at random indices of a ring of 4096
 * slots; every BAD-th op (0: never) uses an index past the ring. stdout:
 * a checksum and the gets' weight (a hook's value); the checks' and hooks'
 * reports go to stderr. Exit 1 when an op was refused, 2 on a bad command
 * line.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ring.h"
#include "stats.h"

int main(int argc, char **argv)
{
	static unsigned long slots[4096];
	struct ring r = { slots, 4096 };
	unsigned long ops = 10000, bad = 0, i, refused = 0, weight = 0;
	unsigned long long x = 1, sum = 0;

	if (argc > 4) {
		fprintf(stderr, "usage: ring [OPS [SEED [BAD]]]\n");
		return 2;
	}
	if (argc > 1)
		ops = strtoul(argv[1], NULL, 0);
	if (argc > 2)
		x = strtoull(argv[2], NULL, 0) * 0x9e3779b97f4a7c15ull + 1;
	if (argc > 3)
		bad = strtoul(argv[3], NULL, 0);
	for (i = 0; i < ops; i++) {
		unsigned long idx, v;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		idx = (unsigned long)(x % 100);
		v = (unsigned long)(x >> 20) % 5000;
		if (bad && i % bad == 0)
			idx = 4096 + (unsigned long)(x % 500);
		if ((x >> 40) & 1) {
			ring_put(&r, idx, v);
		} else {
			sum += ring_get(&r, idx);
			weight += stats_get(idx);
		}
		refused += idx >= r.size;
	}
	printf("ops=%lu sum=%llu weight=%lu\n", ops, sum, weight);
	return refused ? 1 : 0;
}
