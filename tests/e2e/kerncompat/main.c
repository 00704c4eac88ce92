/*
 * Workload for the extent-buffer accessors.
 *
 *   main [OPS [SEED [OOB_RATE]]]   random get/set workload; every OOB_RATE-th
 *                                  op uses an out-of-bounds offset (0 = never)
 *   main --inputs FILE             differential mode: one op per line,
 *                                  "get|set WIDTH OFFSET [VALUE]"
 *
 * stdout carries results only; the checks' reports go to stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>

#include "extent_buffer.h"

#define EB_LEN 4096u
/* Canary bytes past eb->len: a check that wrongly passes reads or writes
 * here (observable in results) instead of crashing on small overruns. */
#define EB_SLACK 64u
#define CANARY 0xa5

static unsigned long long rng_state;

static unsigned long long xorshift64(void)
{
	unsigned long long x = rng_state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	rng_state = x;
	return x;
}

static void seed_rng(unsigned long long seed)
{
	rng_state = seed * 0x9e3779b97f4a7c15ull + 0x2545f4914f6cdd1dull;
	if (!rng_state)
		rng_state = 1;
}

static unsigned char *init_buffer(struct extent_buffer *eb)
{
	unsigned char *mem = malloc(EB_LEN + EB_SLACK);
	unsigned int i;

	if (!mem) {
		perror("malloc");
		exit(1);
	}
	for (i = 0; i < EB_LEN; i++)
		mem[i] = (unsigned char)(xorshift64() >> 56);
	memset(mem + EB_LEN, CANARY, EB_SLACK);
	eb->start = 0x1d3c000ull;
	eb->len = EB_LEN;
	eb->data = mem;
	return mem;
}

static int slack_intact(const unsigned char *mem)
{
	unsigned int i;

	for (i = EB_LEN; i < EB_LEN + EB_SLACK; i++)
		if (mem[i] != CANARY)
			return 0;
	return 1;
}

/* Reference predicate, independent of the check under test. */
static int out_of_bounds(unsigned int off, unsigned int size)
{
	return (unsigned long long)off + size > EB_LEN;
}

static unsigned long long do_get(const struct extent_buffer *eb, unsigned int width, unsigned int off)
{
	switch (width) {
	case 8: return get_u8(eb, off);
	case 16: return get_u16(eb, off);
	case 32: return get_u32(eb, off);
	default: return get_u64(eb, off);
	}
}

static void do_set(struct extent_buffer *eb, unsigned int width, unsigned int off, unsigned long long val)
{
	switch (width) {
	case 8: set_u8(eb, off, (uint8_t)val); break;
	case 16: set_u16(eb, off, (uint16_t)val); break;
	case 32: set_u32(eb, off, (uint32_t)val); break;
	default: set_u64(eb, off, (uint64_t)val); break;
	}
}

static int run_inputs(const char *path)
{
	struct extent_buffer eb;
	unsigned char *mem;
	unsigned long long hash = 0xcbf29ce484222325ull;
	char line[256];
	unsigned int i;
	FILE *f = fopen(path, "r");

	if (!f) {
		perror(path);
		return 1;
	}
	seed_rng(1);
	mem = init_buffer(&eb);
	while (fgets(line, sizeof(line), f)) {
		char op[8];
		unsigned int width, off;
		unsigned long long val = 0;
		int n;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		n = sscanf(line, "%7s %u %u %llu", op, &width, &off, &val);
		if (n < 3 || (width != 8 && width != 16 && width != 32 && width != 64)) {
			printf("error\n");
			continue;
		}
		if (!strcmp(op, "get")) {
			printf("%llu\n", do_get(&eb, width, off));
		} else if (!strcmp(op, "set")) {
			do_set(&eb, width, off, val);
			printf("%s\n", out_of_bounds(off, width / 8) ? "fail" : "ok");
		} else {
			printf("error\n");
		}
		fflush(stdout);	/* keep stdout/stderr order meaningful */
	}
	fclose(f);
	/* Covers the slack too: a set that wrongly passed shows up here. */
	for (i = 0; i < EB_LEN + EB_SLACK; i++)
		hash = (hash ^ mem[i]) * 0x100000001b3ull;
	printf("buf=%016llx\n", hash);
	free(mem);
	return 0;
}

int main(int argc, char **argv)
{
	static const unsigned int widths[4] = { 8, 16, 32, 64 };
	struct extent_buffer eb;
	unsigned char *mem;
	unsigned long ops = 2000000, rate = 0, i, bad_ops = 0;
	unsigned long long seed = 1, sum = 0;

	if (argc > 1 && !strcmp(argv[1], "--inputs")) {
		if (argc < 3) {
			fprintf(stderr, "usage: %s --inputs FILE\n", argv[0]);
			return 2;
		}
		return run_inputs(argv[2]);
	}
	if (argc > 1)
		ops = strtoul(argv[1], NULL, 0);
	if (argc > 2)
		seed = strtoull(argv[2], NULL, 0);
	if (argc > 3)
		rate = strtoul(argv[3], NULL, 0);

	seed_rng(seed);
	mem = init_buffer(&eb);
	for (i = 0; i < ops; i++) {
		unsigned long long r = xorshift64();
		int is_set = (int)(r & 1);
		unsigned int width = widths[(r >> 1) & 3];
		unsigned int size = width / 8;
		int bad = rate && i % rate == rate - 1;
		unsigned int off;

		if (!bad) {
			off = (unsigned int)((r >> 8) % (EB_LEN - size + 1));
		} else {
			switch ((r >> 8) % 3) {
			case 0:	/* partly past the end: off <= len < off + size */
				off = EB_LEN - size + 1 + (unsigned int)((r >> 16) % size);
				break;
			case 1:	/* starts past the end */
				off = EB_LEN + 1 + (unsigned int)((r >> 16) % 4096);
				break;
			default: /* would wrap if off + size were computed in 32 bits */
				off = UINT_MAX - (unsigned int)((r >> 16) % 8);
				break;
			}
			bad_ops++;
		}
		if (is_set)
			do_set(&eb, width, off, xorshift64());
		else
			sum += do_get(&eb, width, off);
	}
	printf("ops=%lu sum=%llu\n", ops, sum);
	if (bad_ops)
		fprintf(stderr, "bad_ops=%lu\n", bad_ops);
	if (!slack_intact(mem)) {
		fprintf(stderr, "slack past eb->len was written\n");
		free(mem);
		return 3;
	}
	free(mem);
	return 0;
}
