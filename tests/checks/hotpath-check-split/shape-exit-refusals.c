// hotpath-options: MultiBranchThreshold=1; SingleBranchThreshold=1; Explain=check_counted
// What the fast path evaluates must be pure and exact, early exits included:
// an exit whose condition counts is no check (explain mode says so); a local
// an exit guards ('if (!b) return 0; n = b->len;') would be read before that
// exit in the fast path, which is refused with a note; an exit that does
// work before returning success is no failure, and its function no check.
#include <stdio.h>

struct buf { unsigned long len; };
static unsigned long calls, cache;

static int check_counted(unsigned long off, unsigned long len)
{
// CHECK-MESSAGES: :[[@LINE-2]]:12: remark: explain 'check_counted': a definition of function 'check_counted'; the steps of hotpath-check-split follow [hotpath-check-split]
	if (calls++ > 1000)
	// CHECK-MESSAGES: :[[@LINE-1]]:6: note: not a check function: the condition of early exit 1 does work besides testing: it increments
		return 0;
	if (off > len) {
		fprintf(stderr, "offset %lu past %lu\n", off, len);
		return -1;
	}
	return 0;
}

static int check_guarded(const struct buf *b, unsigned long off)
{
// CHECK-MESSAGES: :[[@LINE-2]]:12: warning: check function 'check_guarded' keeps its reporting code inline on a hot path; move it to a cold function so the check can be inlined [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:12: note: 'check_guarded' is hot: 1 call site, 1 in loops
	unsigned long n;

	if (!b)
		return 0;
	n = b->len;
	// CHECK-MESSAGES: :[[@LINE-1]]:6: note: no fix: the fast path would evaluate this before the earlier conditions, and it dereferences a pointer that an earlier condition may guard
	if (off >= n) {
		fprintf(stderr, "offset %lu past %lu\n", off, n);
		return -1;
	}
	return 0;
}

static int check_cached(unsigned long off, unsigned long len)
{
	if (off == 0) {
		cache = len;
		return 0;
	}
	if (off > len) {
		fprintf(stderr, "offset %lu past %lu\n", off, len);
		return -1;
	}
	return 0;
}

int run(const struct buf *b, const unsigned long *offs, int n)
{
	int bad = 0;
	for (int i = 0; i < n; i++)
		bad += check_counted(offs[i], 64) + check_guarded(b, offs[i]) +
		       check_cached(offs[i], 64);
	return bad;
}
