#ifndef LIST_H
#define LIST_H
#include <stdbool.h>
#include <stddef.h>

struct node {
	unsigned long key;
	unsigned long value;
	struct node *next;
};

struct list {
	struct node *head;
	size_t len;
};

/* Out of line, in sorted.c: the compiler cannot see that it only reads. */
bool list_is_sorted(const struct list *l);
void list_insert(struct list *l, struct node *n);
unsigned long list_lookup(const struct list *l, unsigned long key);

#endif
