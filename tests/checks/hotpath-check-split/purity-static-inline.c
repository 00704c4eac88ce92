// hotpath-args: -std=c11
// Purity from visible bodies: the conditions call static inline functions
// that only read (a byte swap through a builtin, as be32_to_cpu and
// __fswab32 do, and a reader of two fields, as xfs_dinode_has_bigtime),
// so the slow path may evaluate them again: the check is reported and
// fixed, with no rule set naming them. main() lets
// e2e/check-shapes-behaviour.sh run both on every branch.
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct dinode {
	uint8_t version;
	uint64_t flags2;
	uint32_t nsec;
};

#define DIFLAG2_BIGTIME 0x8ULL

static inline uint32_t fswab32(uint32_t v) { return __builtin_bswap32(v); }
static inline uint32_t be32_to_cpu(uint32_t v) { return fswab32(v); }
static inline uint64_t be64_to_cpu(uint64_t v) { return __builtin_bswap64(v); }

static inline bool dinode_has_bigtime(const struct dinode *d)
{
	return d->version >= 3 && (be64_to_cpu(d->flags2) & DIFLAG2_BIGTIME);
}

static bool check_nsec(const struct dinode *d)
{
// CHECK-MESSAGES: :[[@LINE-2]]:13: warning: check function 'check_nsec' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:13: note: 'check_nsec' is hot: 1 call site, 1 in loops
	if (!dinode_has_bigtime(d) && d->version < 2) {
		fprintf(stderr, "bad version %u\n", d->version);
		return false;
	}
	if (be32_to_cpu(d->nsec) >= 1000000000) {
		fprintf(stderr, "bad nsec %u\n", be32_to_cpu(d->nsec));
		return false;
	}
	return true;
}

unsigned count_good(const struct dinode *d, unsigned n)
{
	unsigned good = 0;
	for (unsigned i = 0; i < n; i++)
		good += check_nsec(&d[i]);
	return good;
}

/* Each dinode as three arguments: version, flags2, nsec (in CPU order). */
int main(int argc, char **argv)
{
	struct dinode d[8];
	unsigned n = 0;
	for (int i = 1; i + 2 < argc && n < 8; i += 3, n++) {
		d[n].version = (uint8_t)atoi(argv[i]);
		d[n].flags2 = __builtin_bswap64(strtoull(argv[i + 1], NULL, 0));
		d[n].nsec = __builtin_bswap32((uint32_t)strtoul(argv[i + 2], NULL, 0));
	}
	unsigned good = count_good(d, n);
	printf("%u of %u good\n", good, n);
	return good == n ? 0 : 1;
}
