/*
 * main [-t] OPS [SEED [BAD]]: OPS random reads of 1, 2, 4 and 8 bytes from a
 * 4096-byte buffer; every BAD-th read (0: none) is out of bounds. -t traces
 * every read. Prints a checksum; exits 3 when a read was out of bounds, 2 on
 * bad arguments.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "access.h"

#define LEN 4096u

static unsigned long long state;

static unsigned long long next(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return state;
}

static unsigned long long read_one(const struct buf *b, unsigned int width, unsigned int off)
{
	switch (width) {
	case 1: return get_u8(b, off);
	case 2: return get_u16(b, off);
	case 4: return get_u32(b, off);
	default: return get_u64(b, off);
	}
}

int main(int argc, char **argv)
{
	static unsigned char mem[LEN];
	struct buf b = { LEN, mem };
	unsigned long ops, bad = 0, i, failed = 0, oob = 0;
	unsigned long long sum = 0;
	int arg = 1;

	if (argc > 1 && !strcmp(argv[1], "-t")) {
		trace_enable(1);
		arg++;
	}
	if (argc <= arg) {
		fprintf(stderr, "usage: %s [-t] OPS [SEED [BAD]]\n", argv[0]);
		return 2;
	}
	ops = strtoul(argv[arg], NULL, 0);
	state = argc > arg + 1 ? strtoull(argv[arg + 1], NULL, 0) * 2654435761u + 1 : 1;
	if (argc > arg + 2)
		bad = strtoul(argv[arg + 2], NULL, 0);
	for (i = 0; i < LEN; i++)
		mem[i] = (unsigned char)(next() >> 56);
	for (i = 0; i < ops; i++) {
		unsigned long long r = next();
		unsigned int width = 1u << (r & 3);
		unsigned int off = (unsigned int)((r >> 8) % (LEN - 7));

		if (bad && i % bad == bad - 1) {
			off = LEN - width + 1 + (unsigned int)((r >> 20) % (2 * width));
			oob++;
		}
		if (should_fail(i)) {
			failed++;
			continue;
		}
		trace_event(i, off);
		sum += read_one(&b, width, off);
		/* The pair after it, as a 16-bit header check. */
		if (check_range(&b, off, 2))
			sum += mem[off];
	}
	printf("ops=%lu sum=%llu failed=%lu\n", ops, sum, failed);
	return oob ? 3 : 0;
}
