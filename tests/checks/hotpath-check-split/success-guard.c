// hotpath-options: MultiBranchThreshold=1; SingleBranchThreshold=1
// A branch that reports nothing and returns what success returns is an early
// success exit, not a failure branch: merged into the unlikely condition it
// would send the common case down the slow path, so it guards the tests after
// it instead, negated (btrfs-progs check_output_format: '!cmd->next && ...').
// check_len, the same shape, is not hot. A silent branch that returns a
// failure value is a failure branch.
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

struct cmd { const struct cmd *next; unsigned flags; };
static unsigned output_format = 1;

static void check_output_format(const struct cmd *cmd)
{
// CHECK-MESSAGES: :[[@LINE-2]]:13: warning: check function 'check_output_format' keeps its reporting code inline on a hot path; move it to a cold function so the check can be inlined [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:13: note: 'check_output_format' is hot: 1 call site, 1 in loops
	if (cmd->next)
		return;

	if (!(cmd->flags & output_format)) {
		fprintf(stderr, "output format %u is unsupported\n", output_format);
		exit(1);
	}
}

static bool check_len(unsigned long len, unsigned long max)
{
	if (len == 0)
		return true;
	if (len > max) {
		fprintf(stderr, "too long: %lu\n", len);
		return false;
	}
	return true;
}

static int check_silent_failure(unsigned long len, unsigned long max)
{
// CHECK-MESSAGES: :[[@LINE-2]]:12: warning: check function 'check_silent_failure' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:12: note: 'check_silent_failure' is hot: 1 call site, 1 in loops
	if (len == 0)
		return -1;
	if (len > max) {
		fprintf(stderr, "too long: %lu\n", len);
		return -1;
	}
	return 0;
}

int run(const struct cmd *c, unsigned long n)
{
	int r = 0;
	for (; c; c = c->next)
		check_output_format(c);
	r += check_len(n, 64);
	for (unsigned long i = 0; i < n; i++) r += check_silent_failure(i, 64);
	return r;
}
