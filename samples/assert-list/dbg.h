/* Assertions: on with -DLIST_DEBUG, "off" otherwise -- but the release form
 * still evaluates its argument, like btrfs' ASSERT() before the fix. */
#ifndef DBG_H
#define DBG_H
#include <stdio.h>
#include <stdlib.h>

#ifdef LIST_DEBUG
#define ASSERT(x)                                                              \
	do {                                                                   \
		if (!(x)) {                                                    \
			fprintf(stderr, "assertion failed: %s (%s:%d)\n", #x,  \
				__FILE__, __LINE__);                           \
			abort();                                               \
		}                                                              \
	} while (0)
#else
#define ASSERT(x) ((void)(x))
#endif

#endif
