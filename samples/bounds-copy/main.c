/*
 * Workload for the bounds-checked buffer accessors.
 *
 *   copy [OPS [SEED [OOB_RATE]]]
 *
 * Each op reads a 32-bit value, writes one, or reads 1 to 16 bytes at a
 * random offset of a 4096-byte buffer; every OOB_RATE-th op (0: never) uses
 * a range that starts or ends past the end. stdout: what was read; the
 * check's reports go to stderr. Exit 1 when some op was refused, 2 on a bad
 * command line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

#define BUF_SIZE 4096u

static unsigned long long rng;

static unsigned long long next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

int main(int argc, char **argv)
{
	static unsigned char mem[BUF_SIZE];
	struct buf b = { mem, BUF_SIZE };
	unsigned char tmp[16];
	unsigned long ops = 300000, oob = 0, i, copied = 0, refused = 0;
	unsigned long long seed = 1, sum = 0;

	if (argc > 4) {
		fprintf(stderr, "usage: copy [OPS [SEED [OOB_RATE]]]\n");
		return 2;
	}
	if (argc > 1)
		ops = strtoul(argv[1], NULL, 0);
	if (argc > 2)
		seed = strtoull(argv[2], NULL, 0);
	if (argc > 3)
		oob = strtoul(argv[3], NULL, 0);
	rng = seed * 0x9e3779b97f4a7c15ull + 1;
	for (i = 0; i < BUF_SIZE; i++)
		mem[i] = (unsigned char)(next() >> 56);
	memset(tmp, 0, sizeof(tmp));
	for (i = 0; i < ops; i++) {
		unsigned long long x = next();
		unsigned long off = (unsigned long)(x % (BUF_SIZE - 16));
		unsigned long len = 1 + (unsigned long)((x >> 20) & 15);
		unsigned long n;

		if (oob && i % oob == 0)
			off = (x >> 40) & 1 ? BUF_SIZE + 1 + (x & 0xff) : BUF_SIZE - len / 2;
		switch ((x >> 32) & 3) {
		case 0:
			sum += buf_get_u32(&b, off);
			break;
		case 1:
			buf_put_u32(&b, off, (unsigned int)x);
			break;
		default:
			n = buf_read(&b, off, len, tmp);
			refused += n == 0;
			copied += n;
			sum += tmp[(x >> 8) & 15];
			break;
		}
	}
	printf("ops=%lu copied=%lu refused=%lu sum=%llu\n", ops, copied, refused, sum);
	return refused ? 1 : 0;
}
