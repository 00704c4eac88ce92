// hotpath-args: -std=gnu11
// hotpath-options: Explain=seek_set
// e2image's seek_set and btrfs-corrupt-block's parse_key have the shape of a
// check (a preamble, a branch that reports and leaves, a return), but their
// preamble does the work (a seek, a parse): no check function, no finding.
// Explain mode says which rule ruled seek_set out.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <unistd.h>

static off_t seek_set(int fd, off_t offset)
{
// CHECK-MESSAGES: :[[@LINE-2]]:14: remark: explain 'seek_set': a definition of function 'seek_set'; the steps of hotpath-check-split follow [hotpath-check-split]
	off_t ret = lseek(fd, offset, SEEK_SET);
	// CHECK-MESSAGES: :[[@LINE-1]]:14: note: not a check function: the preamble does work besides testing: it calls 'lseek', which is not known to be pure
	if (ret < 0) {
		perror("seek_set");
		exit(1);
	}
	return ret;
}

static void parse_key(const char *arg, unsigned long *objectid, unsigned char *type)
{
	int ret = sscanf(arg, "%lu,%hhu", objectid, type);
	if (ret != 2) {
		fprintf(stderr, "error parsing key '%s': %d\n", arg, errno);
		exit(1);
	}
}

int copy_blocks(int fd, const off_t *offsets, int n, const char **keys)
{
	unsigned long objectid = 0;
	unsigned char type = 0;

	for (int i = 0; i < n; i++) {
		seek_set(fd, offsets[i]);
		seek_set(fd, offsets[i] + 512);
		parse_key(keys[i], &objectid, &type);
		parse_key(keys[i] + 1, &objectid, &type);
		parse_key(keys[i] + 2, &objectid, &type);
	}
	return (int)objectid + type;
}
