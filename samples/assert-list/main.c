/* usage: list [OPS [SEED [LEN [BREAK]]]]: LEN sorted inserts, then OPS
 * lookups of pseudo-random keys; prints a checksum. BREAK=K (1 <= K < LEN)
 * corrupts the list as a stray write would: once it holds K + 1 nodes, the
 * K-th node's key becomes larger than any, so an enabled
 * ASSERT(list_is_sorted(l)) fails, in list_insert() for K < LEN - 1 and in
 * list_lookup() for K = LEN - 1 (the tests need inputs that make each fire). */
#include "list.h"
#include "dbg.h"

static unsigned long next_rand(unsigned long *s)
{
	*s = *s * 6364136223846793005UL + 1442695040888963407UL;
	return *s >> 33;
}

/* LEN sorted inserts, corrupted as BREAK says; returns the next seed. Out of
 * line, and the seed passed by value, so that main's lookup loop, which the
 * benchmark measures, compiles to the same instructions as before BREAK. */
static __attribute__((noinline)) unsigned long build_list(struct list *l, struct node *nodes,
							  size_t len, unsigned long seed, size_t brk)
{
	for (size_t i = 0; i < len; i++) {
		nodes[i].key = next_rand(&seed) % (4 * len + 1);
		nodes[i].value = i + 1;
		list_insert(l, &nodes[i]);
		if (brk && l->len == brk + 1) {
			struct node *n = l->head;

			for (size_t k = 1; k < brk; k++)
				n = n->next;
			n->key = 4 * len + 2;
		}
	}
	return seed;
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
	seed = build_list(&l, nodes, len, seed, argc > 4 ? strtoul(argv[4], NULL, 10) : 0);
	for (unsigned long i = 0; i < ops; i++)
		sum += list_lookup(&l, next_rand(&seed) % (4 * len + 1));
	printf("len %zu ops %lu checksum %lu sorted %d\n", l.len, ops, sum,
	       (int)list_is_sorted(&l));
	free(nodes);
	return 0;
}
