/* usage: prog N [EVERY]: checksums an N-byte buffer 20 times; with EVERY,
 * installs a fault callback (fault_install) that fails every EVERY-th step
 * of the 3rd pass. Exit 2 on a fault, 1 on bad arguments. */
#include <stdio.h>
#include <stdlib.h>

#include "fault.h"
#include "work.h"

static int every, pass;

static int fail_every(int step)
{
	return pass == 3 && step % every == every - 1;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 0;
	unsigned char *buf;
	long sum = 0;
	int i;

	if (n <= 0 || (argc > 2 && atoi(argv[2]) <= 0)) {
		fprintf(stderr, "usage: %s N [EVERY]\n", argv[0]);
		return 1;
	}
	if (argc > 2) {
		every = atoi(argv[2]);
		fault_install(fail_every);
	}
	buf = malloc((size_t)n);
	if (!buf)
		return 1;
	for (i = 0; i < n; i++)
		buf[i] = (unsigned char)(i * 7 + 3);
	for (pass = 0; pass < 20; pass++) {
		sum = checksum(buf, n);
		if (sum < 0) {
			fprintf(stderr, "fault at step %ld of pass %d\n", -1 - sum, pass);
			free(buf);
			return 2;
		}
	}
	printf("checksum %ld\n", sum);
	free(buf);
	return 0;
}
