// hotpath-args: -std=c17
// The definition lives in a header, and spans lines. Other translation
// units may include it with uses that need their argument evaluated: without
// the project index, which records them, no fix (every route refuses alike).
#include "header.h"

struct list { struct list *next; int v; };
int list_is_sorted(const struct list *l); /* in another file */

int first(const struct list *l)
{
	ASSERT(list_is_sorted(l));
	return l->v;
}
