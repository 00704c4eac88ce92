#include <stdio.h>

#include "ring.h"

#ifdef RING_CHECKS
bool ring_check(const struct ring *r, unsigned long idx)
{
	if (idx >= r->size) {
		fprintf(stderr, "%s: index %lu past the ring (%lu slots)\n", __func__, idx, r->size);
		return false;
	}
	if (idx >= RING_MAX) {
		fprintf(stderr, "%s: index %lu past the limit %lu\n", __func__, idx, RING_MAX);
		return false;
	}
	return true;
}
#endif

typedef int check_translation_unit_not_empty;
