// hotpath-options: MultiBranchThreshold=1; SingleBranchThreshold=1
// Nested ifs whose leaves all report and leave: each leaf is the branch
// 'outer && inner', tested in the order the original tests them; a body that
// ends in reporting and leaving is one more branch, the outer condition's.
#include <stdio.h>
#include <stdlib.h>

#define F_INLINE 1u

struct ent { unsigned flags; unsigned long len, inline_len; };

static int check_entry(const struct ent *e, unsigned long off)
{
// CHECK-MESSAGES: :[[@LINE-2]]:12: warning: check function 'check_entry' tests 3 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:12: note: 'check_entry' is hot: 1 call site, 1 in loops
	if (e->flags & F_INLINE) {
		if (off > e->inline_len) {
			fprintf(stderr, "inline offset %lu past %lu\n", off, e->inline_len);
			return -1;
		}
		if (off & 3) {
			fprintf(stderr, "unaligned inline offset %lu\n", off);
			return -1;
		}
	}
	if (off > e->len) {
		fprintf(stderr, "offset %lu past %lu\n", off, e->len);
		return -1;
	}
	return 0;
}

static int check_tail(unsigned long off, unsigned long len)
{
// CHECK-MESSAGES: :[[@LINE-2]]:12: warning: check function 'check_tail' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:12: note: 'check_tail' is hot: 1 call site, 1 in loops
	if (off >= len) {
		if (off == len) {
			fprintf(stderr, "offset %lu at the end\n", off);
			return -2;
		}
		fprintf(stderr, "offset %lu past %lu\n", off, len);
		return -1;
	}
	return 0;
}

static int run(const unsigned long *v, int n)
{
	int bad = 0;
	for (int i = 0; i + 1 < n; i += 2) {
		struct ent e = { (unsigned)v[i], 64, 16 };
		bad += check_entry(&e, v[i + 1]) != 0;
		bad -= check_tail(v[i + 1], 32);
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
	return bad & 0x7f;
}
