#include "list.h"
#include "dbg.h"

void list_insert(struct list *l, struct node *n)
{
	struct node **p = &l->head;

	while (*p && (*p)->key < n->key)
		p = &(*p)->next;
	n->next = *p;
	*p = n;
	l->len++;
	ASSERT(list_is_sorted(l));
}

/* The hot path: every lookup "checks" the whole list when asserts are off. */
unsigned long list_lookup(const struct list *l, unsigned long key)
{
	const struct node *n;

	ASSERT(list_is_sorted(l));
	for (n = l->head; n; n = n->next)
		if (n->key >= key)
			return n->key == key ? n->value : 0;
	return 0;
}
