// hotpath-options: MultiBranchThreshold=1; SingleBranchThreshold=1
// The guard written the other way round, 'if (ok) return 0; report; return 1;':
// the failure branch is '!ok', and the guard's return the success return; a
// '(void)param;' on the success path does nothing the fast path must copy.
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

static int check_len(unsigned long len, unsigned long max)
{
// CHECK-MESSAGES: :[[@LINE-2]]:12: warning: check function 'check_len' keeps its reporting code inline on a hot path; move it to a cold function so the check can be inlined [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:12: note: 'check_len' is hot: 1 call site, 1 in loops
	if (len <= max)
		return 0;
	fprintf(stderr, "too long: %lu > %lu\n", len, max);
	return -1;
}

static int check_name(const char *name, unsigned long max)
{
// CHECK-MESSAGES: :[[@LINE-2]]:12: warning: check function 'check_name' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:12: note: 'check_name' is hot: 1 call site, 1 in loops
	if (!name) {
		fprintf(stderr, "no name\n");
		return -1;
	}
	if (name[0] && max > 0)
		return 0;
	else {
		fprintf(stderr, "empty name or no room\n");
		return -1;
	}
}

static bool check_flags(unsigned flags, unsigned mask, int verbose)
{
// CHECK-MESSAGES: :[[@LINE-2]]:13: warning: check function 'check_flags' keeps its reporting code inline on a hot path; move it to a cold function so the check can be inlined [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:13: note: 'check_flags' is hot: 1 call site, 1 in loops
	if (flags & ~mask) {
		fprintf(stderr, "unknown flags %#x\n", flags & ~mask);
		return false;
	}
	(void)verbose;
	return true;
}

static void check_mode(unsigned mode)
{
// CHECK-MESSAGES: :[[@LINE-2]]:13: warning: check function 'check_mode' keeps its reporting code inline on a hot path; move it to a cold function so the check can be inlined [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:13: note: 'check_mode' is hot: 1 call site, 1 in loops
	if (mode < 4)
		return;
	fprintf(stderr, "bad mode %u\n", mode);
	exit(2);
}

static int run(char **args, int n)
{
	int bad = 0;
	for (int i = 0; i < n; i++) {
		unsigned long v = strtoul(args[i], NULL, 0);
		bad += check_len(v, 8) != 0;
		bad += check_name(v == 7 ? NULL : v == 6 ? "" : args[i], v) != 0;
		bad += !check_flags((unsigned)v, 0xf, 0);
		check_mode(v == 4 ? 4 : 0);
	}
	return bad;
}

int main(int argc, char **argv)
{
	int bad = run(argv + 1, argc - 1);
	printf("%d bad\n", bad);
	return bad;
}
