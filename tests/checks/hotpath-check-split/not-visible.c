// The header only declares struct blob; the fast path reads b->len, so it
// cannot go into the header: the finding comes without a fix.
#include <stdio.h>
#include "not-visible.h"

struct blob { unsigned long len; };

bool check_blob(const struct blob *b, unsigned long off)
{
	if (off >= b->len) {
		fprintf(stderr, "offset %lu\n", off);
		return false;
	}
	if (off + 16 > b->len) {
		fprintf(stderr, "end %lu\n", off + 16);
		return false;
	}
	return true;
}

int probe(const struct blob *b)
{
	int n = 0;
	for (unsigned long i = 0; i < 64; i++)
		n += check_blob(b, i);
	return n;
}
