/* A ring of slots whose accessors check the index (RING_CHECKS), against a
 * limit that depends on the build (RING_STRICT). */
#ifndef RING_H
#define RING_H

#include <stdbool.h>

#ifdef RING_STRICT
#define RING_MAX 64ul
#else
#define RING_MAX 4096ul
#endif

struct ring {
	unsigned long *slots;
	unsigned long size;
};

#ifdef RING_CHECKS
bool ring_check(const struct ring *r, unsigned long idx);
#else
static inline bool ring_check(const struct ring *r, unsigned long idx)
{
	return idx < r->size && idx < RING_MAX;
}
#endif

unsigned long ring_get(const struct ring *r, unsigned long idx);
void ring_put(struct ring *r, unsigned long idx, unsigned long v);

#endif /* RING_H */
