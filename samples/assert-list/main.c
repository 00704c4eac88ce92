/* usage: list [OPS [SEED [LEN]]]: LEN sorted inserts, then OPS lookups of
 * pseudo-random keys; prints a checksum. */
#include "list.h"
#include "dbg.h"

static unsigned long next_rand(unsigned long *s)
{
	*s = *s * 6364136223846793005UL + 1442695040888963407UL;
	return *s >> 33;
}

int main(int argc, char **argv)
{
	unsigned long ops = argc > 1 ? strtoul(argv[1], NULL, 10) : 100000;
	unsigned long seed = argc > 2 ? strtoul(argv[2], NULL, 10) : 1;
	size_t len = argc > 3 ? strtoul(argv[3], NULL, 10) : 32;
	struct list l = { NULL, 0 };
	struct node *nodes = calloc(len ? len : 1, sizeof(*nodes));
	unsigned long sum = 0;

	if (!nodes)
		return 1;
	for (size_t i = 0; i < len; i++) {
		nodes[i].key = next_rand(&seed) % (4 * len + 1);
		nodes[i].value = i + 1;
		list_insert(&l, &nodes[i]);
	}
	for (unsigned long i = 0; i < ops; i++)
		sum += list_lookup(&l, next_rand(&seed) % (4 * len + 1));
	printf("len %zu ops %lu checksum %lu sorted %d\n", l.len, ops, sum,
	       (int)list_is_sorted(&l));
	free(nodes);
	return 0;
}
