/* Statistics hooks: out of line in a build that keeps statistics
 * (RING_STATS), a constant otherwise. The declaration's #ifdef has no
 * #else: the constant is defined under an #if of its own. */
#ifndef STATS_H
#define STATS_H

#ifdef RING_STATS
/* The weight of one get: 3, unless a statistics tool takes the hook over. */
int stats_get(unsigned long idx);
#endif

#ifndef RING_STATS
#define stats_get(idx) 3
#endif

#endif /* STATS_H */
