// Check functions the rewrite must leave alone, each explained by a note.
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

static unsigned long checked;

/* The success path does more than return. */
static bool check_and_count(unsigned long off, unsigned long len)
{
	if (off > len) {
		fprintf(stderr, "start %lu\n", off);
		return false;
	}
	if (off + 8 > len) {
		fprintf(stderr, "end %lu\n", off + 8);
		return false;
	}
	checked++;
	return true;
}

/* Variadic. */
static bool check_va(unsigned long off, unsigned long len, ...)
{
	if (off > len) {
		fprintf(stderr, "start %lu\n", off);
		return false;
	}
	if (off + 8 > len) {
		fprintf(stderr, "end %lu\n", off + 8);
		return false;
	}
	return true;
}

/* Its address is taken. */
static bool check_ptr(unsigned long off, unsigned long len)
{
	if (off > len) {
		fprintf(stderr, "start %lu\n", off);
		return false;
	}
	if (off + 8 > len) {
		fprintf(stderr, "end %lu\n", off + 8);
		return false;
	}
	return true;
}

bool (*checker)(unsigned long, unsigned long) = check_ptr;

/* A later condition dereferences what the first one guards. */
struct node { unsigned long len; };
static bool check_node(const struct node *n, unsigned long off)
{
	if (!n) {
		fprintf(stderr, "no node\n");
		return false;
	}
	if (off > n->len) {
		fprintf(stderr, "offset %lu\n", off);
		return false;
	}
	return true;
}

unsigned long run(const struct node *n, unsigned long len, int count)
{
	unsigned long t = 0;
	for (int i = 0; i < count; i++) {
		t += check_and_count((unsigned long)i, len);
		t += check_va((unsigned long)i, len, 0);
		t += check_ptr((unsigned long)i, len);
		t += check_node(n, (unsigned long)i);
	}
	return t + checked;
}
