#include "stats.h"

#ifdef RING_STATS
/* Kept out of line so that a statistics tool can take it over. */
__attribute__((noinline)) int stats_get(unsigned long idx)
{
	(void)idx;
	return 3;
}
#endif

typedef int stats_translation_unit_not_empty;
