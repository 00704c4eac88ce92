// hotpath-options: MultiBranchThreshold=1; SingleBranchThreshold=1
// The success return in an else branch, and else-if chains: a branch that
// leaves makes its else the code after it, so these are the shapes without
// else. tests/e2e/check-shapes-behaviour.sh runs main on inputs that take
// each branch, before and after the fix.
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

struct buf { unsigned long len; };

static bool check_else(const struct buf *b, unsigned long off)
{
// CHECK-MESSAGES: :[[@LINE-2]]:13: warning: check function 'check_else' keeps its reporting code inline on a hot path; move it to a cold function so the check can be inlined [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:13: note: 'check_else' is hot: 1 call site, 1 in loops
	if (off > b->len) {
		fprintf(stderr, "bad offset %lu\n", off);
		return false;
	} else {
		return true;
	}
}

static int check_else_if(unsigned long off, unsigned long len)
{
// CHECK-MESSAGES: :[[@LINE-2]]:12: warning: check function 'check_else_if' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:12: note: 'check_else_if' is hot: 1 call site, 1 in loops
	if (off == 0) {
		fprintf(stderr, "zero offset\n");
		return -1;
	} else if (off > len) {
		fprintf(stderr, "offset %lu past %lu\n", off, len);
		return -1;
	} else
		return 0;
}

static int run(const unsigned long *offs, int n)
{
	struct buf b = { 16 };
	int bad = 0;
	for (int i = 0; i < n; i++) {
		bad += !check_else(&b, offs[i]);
		bad += check_else_if(offs[i], b.len) != 0;
	}
	return bad;
}

int main(int argc, char **argv)
{
	unsigned long offs[16];
	int n = 0;
	for (int i = 1; i < argc && n < 16; i++)
		offs[n++] = strtoul(argv[i], NULL, 0);
	int bad = run(offs, n);
	printf("%d bad\n", bad);
	return bad;
}
