// Already in the fast-path form (the fixed btrfs shape): nothing to report,
// neither the inline fast path nor the cold reporter.
#include <stdbool.h>
#include <stdio.h>

#define unlikely(x) __builtin_expect(!!(x), 0)

struct buf { unsigned long len; };

__attribute__((noinline, cold)) static void report_bounds(const struct buf *b, unsigned long off)
{
	if (off > b->len) {
		fprintf(stderr, "start %lu\n", off);
		return;
	}
	fprintf(stderr, "end %lu\n", off + 4);
}

static inline bool check_bounds(const struct buf *b, unsigned long off)
{
	if (unlikely(off + 4 > b->len)) {
		report_bounds(b, off);
		return false;
	}
	return true;
}

int use(const struct buf *b)
{
	int ok = 0;
	for (unsigned long i = 0; i < 16; i++)
		ok += check_bounds(b, i);
	return ok;
}
