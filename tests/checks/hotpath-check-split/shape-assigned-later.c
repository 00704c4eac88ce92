// hotpath-options: MultiBranchThreshold=1; SingleBranchThreshold=1
// A local declared first and assigned later: the assignment is its
// initializer, evaluated where the original evaluates it. The fast path
// copies the declaration and the assignment; where the assignment comes
// after a branch it must not be able to trap before that branch's test. A
// failure value the fast path returns itself ("return err;") keeps the local
// it names.
#include <stdio.h>
#include <stdlib.h>

struct buf { unsigned long len; const unsigned char *data; };

static int check_range(unsigned long start, unsigned long len, unsigned long size)
{
// CHECK-MESSAGES: :[[@LINE-2]]:12: warning: check function 'check_range' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:12: note: 'check_range' is hot: 1 call site, 1 in loops
	unsigned long end;

	if (len == 0) {
		fprintf(stderr, "empty range at %lu\n", start);
		return -1;
	}
	end = start + len;
	if (end > size || end < start) {
		fprintf(stderr, "range %lu+%lu past %lu\n", start, len, size);
		return -1;
	}
	return 0;
}

static int check_first(const struct buf *b, unsigned long off)
{
// CHECK-MESSAGES: :[[@LINE-2]]:12: warning: check function 'check_first' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:12: note: 'check_first' is hot: 1 call site, 1 in loops
	unsigned long n;

	if (!b) {
		fprintf(stderr, "no buffer\n");
		return -1;
	}
	n = b->len;
	// CHECK-MESSAGES: :[[@LINE-1]]:6: note: no fix: the fast path would evaluate this before the earlier conditions, and it dereferences a pointer that an earlier condition may guard
	if (off >= n) {
		fprintf(stderr, "offset %lu past %lu\n", off, n);
		return -1;
	}
	return 0;
}

static int check_room(unsigned long used, unsigned long want, unsigned long size)
{
// CHECK-MESSAGES: :[[@LINE-2]]:12: warning: check function 'check_room' keeps its reporting code inline on a hot path; move it to a cold function so the check can be inlined [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:12: note: 'check_room' is hot: 1 call site, 1 in loops
	int err;

	err = -28;
	if (want > size - used) {
		fprintf(stderr, "no room for %lu: %lu of %lu used\n", want, used, size);
		return err;
	}
	return 0;
}

static int run(const unsigned long *v, int n)
{
	struct buf b = { 16, NULL };
	int bad = 0;
	for (int i = 0; i + 1 < n; i += 2) {
		bad += check_range(v[i], v[i + 1], b.len) != 0;
		bad += check_first(v[i] == 99 ? NULL : &b, v[i]) != 0;
		bad += check_room(v[i] % 17, v[i + 1], b.len) != 0;
	}
	return bad;
}

int main(int argc, char **argv)
{
	unsigned long v[16];
	int n = 0;
	for (int i = 1; i < argc && n < 16; i++)
		v[n++] = strtoul(argv[i], NULL, 0);
	int bad = run(v, n);
	printf("%d bad\n", bad);
	return bad;
}
