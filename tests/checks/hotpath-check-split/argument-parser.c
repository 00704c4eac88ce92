// hotpath-args: -std=gnu11
// hotpath-options: Explain=check_level
// A getopt loop runs once per command-line argument, and main's own code
// once per start: calls there score nothing (btrfs-corrupt-block's parse_key
// was "hot" from four getopt cases). btrfs-progs' loops read
// `c = getopt_long(...)` in their body, others test getopt or argc in the
// condition. The same kind of check called once in a loop over the data is
// hot.
#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>

static bool check_level(long level)
{
// CHECK-MESSAGES: :[[@LINE-2]]:13: remark: explain 'check_level': a definition of function 'check_level'; the steps of hotpath-check-split follow [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:13: note: a check function: 2 branch(es) that report and leave, then the success path
// CHECK-MESSAGES: :[[@LINE-4]]:13: note: not hot: heat score 0 (3 call sites, 3 run once per program start (main, a command-line loop) and score nothing) against MultiBranchThreshold 3; a call site scores 1, in a loop 2 more, from a macro-generated accessor 4 more, in an assert-like macro 1 more
	if (level < 1) {
		fprintf(stderr, "level %ld below 1\n", level);
		return false;
	}
	if (level > 9) {
		fprintf(stderr, "level %ld above 9\n", level);
		return false;
	}
	return true;
}

static bool check_width(long width)
{
	if (width < 1) {
		fprintf(stderr, "width %ld below 1\n", width);
		return false;
	}
	if (width > 64) {
		fprintf(stderr, "width %ld above 64\n", width);
		return false;
	}
	return true;
}

static bool check_sample(long v)
{
// CHECK-MESSAGES: :[[@LINE-2]]:13: warning: check function 'check_sample' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:13: note: 'check_sample' is hot: 1 call site, 1 in loops
	if (v < -1000) {
		fprintf(stderr, "sample %ld too low\n", v);
		return false;
	}
	if (v > 1000) {
		fprintf(stderr, "sample %ld too high\n", v);
		return false;
	}
	return true;
}

int parse_args(int argc, char **argv, long *level)
{
	while (1) {
		int c = getopt(argc, argv, "l:f:q:");
		if (c < 0)
			break;
		switch (c) {
		case 'l':
			*level = 3;
			if (!check_level(*level))
				return 1;
			break;
		case 'f':
			*level = 9;
			if (!check_level(*level))
				return 1;
			break;
		case 'q':
			*level = 1;
			if (!check_level(*level))
				return 1;
			break;
		}
	}
	for (int i = 1; i < argc; i++)
		if (!check_width(i))
			return 1;
	return 0;
}

static bool check_count(long n)
{
	if (n < 0) {
		fprintf(stderr, "negative count %ld\n", n);
		return false;
	}
	if (n > 1 << 20) {
		fprintf(stderr, "count %ld too large\n", n);
		return false;
	}
	return true;
}

int main(int argc, char **argv)
{
	long level = 0;
	if (!check_count(argc) || !check_count(argc - 1) || !check_count(argc * 2))
		return 1;
	return parse_args(argc, argv, &level);
}

long sum(const long *v, int n)
{
	long t = 0;
	for (int i = 0; i < n; i++)
		if (check_sample(v[i]))
			t += v[i];
	return t;
}
