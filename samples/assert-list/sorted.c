/* Alone in its translation unit: callers cannot see that it only reads
 * (clang would otherwise drop the call of a read-only, returning function). */
#include "list.h"

bool list_is_sorted(const struct list *l)
{
	const struct node *n;

	for (n = l->head; n && n->next; n = n->next)
		if (n->key > n->next->key)
			return false;
	return true;
}
