// hotpath-options: MultiBranchThreshold=1; SingleBranchThreshold=1
// Early success exits ('if (c) return ok;', 'return;' in a void function)
// fold into the fast path's condition as negated guards of the tests after
// them, each evaluated once and in the original's order; the guard may also
// be written the other way round, its failure the fall-through tail. An exit
// after the last failure decides nothing and is left out.
#include <stdio.h>
#include <stdlib.h>

struct tbl { int lax; unsigned n; const int *slot; };
struct ent { int kind; unsigned long size; };
enum { K_FILE, K_DIR };

static int check_slot(const struct tbl *t, unsigned i)
{
// CHECK-MESSAGES: :[[@LINE-2]]:12: warning: check function 'check_slot' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:12: note: 'check_slot' is hot: 1 call site, 1 in loops
	if (t->lax)
		return 0;
	if (i >= t->n) {
		fprintf(stderr, "slot %u past %u\n", i, t->n);
		return -1;
	}
	if (t->slot[i] == 0) {
		fprintf(stderr, "slot %u empty\n", i);
		return -2;
	}
	if (i == 0)
		return 0;
	return 0;
}

static int check_size(unsigned long len, unsigned long max)
{
// CHECK-MESSAGES: :[[@LINE-2]]:12: warning: check function 'check_size' keeps its reporting code inline on a hot path; move it to a cold function so the check can be inlined [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:12: note: 'check_size' is hot: 1 call site, 1 in loops
	if (len == 0)
		return 1;
	if (len <= max)
		return 1;
	fprintf(stderr, "size %lu > %lu\n", len, max);
	return 0;
}

static int check_ent(const struct ent *e, unsigned long max)
{
// CHECK-MESSAGES: :[[@LINE-2]]:12: warning: check function 'check_ent' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:12: note: 'check_ent' is hot: 1 call site, 1 in loops
	if (!e) {
		fprintf(stderr, "no entry\n");
		return -1;
	}
	if (e->kind == K_DIR)
		return 0;
	if (e->size > max) {
		fprintf(stderr, "file of %lu bytes\n", e->size);
		return -1;
	}
	return 0;
}

static void check_limit(unsigned long v, unsigned long lim, int quiet)
{
// CHECK-MESSAGES: :[[@LINE-2]]:13: warning: check function 'check_limit' keeps its reporting code inline on a hot path; move it to a cold function so the check can be inlined [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:13: note: 'check_limit' is hot: 1 call site, 1 in loops
	if (quiet)
		return;
	if (v > lim) {
		fprintf(stderr, "%lu over the limit %lu\n", v, lim);
		exit(3);
	}
}

static unsigned run(char **args, int n)
{
	static const int slots[4] = { 1, 0, 1, 1 };
	unsigned r = 0;
	for (int i = 0; i < n; i++) {
		unsigned long v = strtoul(args[i], NULL, 0);
		struct tbl t = { (int)(v & 1), 4, slots };
		struct ent e = { (v & 2) ? K_DIR : K_FILE, v >> 2 };
		r = r * 7 + (unsigned)check_slot(&t, (unsigned)(v >> 2));
		r = r * 7 + (unsigned)check_size(v >> 2, 5);
		r = r * 7 + (unsigned)check_ent((v & 4) && (v & 1) ? NULL : &e, 9);
		check_limit(v >> 2, 40, (int)(v & 2));
	}
	return r;
}

int main(int argc, char **argv)
{
	printf("%u\n", run(argv + 1, argc - 1));
	return 0;
}
