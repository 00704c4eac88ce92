// hotpath-options: Profile=profile-folded.folded.txt; ProfileMetric=inclusive; ProfileThreshold=5
// Folded stacks, inclusive samples: parse_key is on 40% of the stacks,
// parse_value on 2% (under the 5% threshold: not reported).
#include <stdio.h>

struct key { unsigned len; unsigned kind; };

int parse_key(const struct key *k)
{
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: check function 'parse_key' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:5: note: 'parse_key' is hot: 40.0% of samples (inclusive) in 'profile-folded.folded.txt'
// CHECK-MESSAGES: :[[@LINE-4]]:5: note: no fix: it has external linkage and no declaration in a header to put the inline fast path in
	if (k->len > 255) {
		fprintf(stderr, "key too long: %u\n", k->len);
		return -1;
	}
	if (k->kind > 7) {
		fprintf(stderr, "bad kind %u\n", k->kind);
		return -1;
	}
	return 0;
}

int parse_value(const struct key *k)
{
	if (k->len == 0) {
		fprintf(stderr, "empty value\n");
		return -1;
	}
	if (k->kind == 3) {
		fprintf(stderr, "kind 3 has no value\n");
		return -1;
	}
	return 0;
}
