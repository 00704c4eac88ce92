// hotpath-options: Profile=profile-folded.folded.txt; ProfileMetric=inclusive; ProfileThreshold=5
// Folded stacks, inclusive samples: parse_key is on 40% of the stacks,
// parse_value on 2% (under the 5% threshold: not reported).
#include <stdio.h>

struct key { unsigned len; unsigned kind; };

int parse_key(const struct key *k)
{
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
