// hotpath-options: MultiBranchThreshold=1; SingleBranchThreshold=1
// xfsprogs repair/dinode.c check_nsec, reduced: a void check with two early
// success exits, the second a guard written the other way round whose
// fall-through tail is the failure: it reports, then repairs the timestamp
// and sets *dirty, or not, by a global. The fast path repeats the preamble
// (the cast is pure) and tests '!bigtime && !(nsec < NSEC_PER_SEC)'.
#include <stdarg.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NSEC_PER_SEC 1000000000u
#define XFS_DIFLAG2_BIGTIME 0x8u
#define xfs_dinode_has_bigtime(dip) \
	((dip)->di_version >= 3 && ((dip)->di_flags2 & XFS_DIFLAG2_BIGTIME))
#define be32_to_cpu(x) __builtin_bswap32(x)
#define cpu_to_be32(x) __builtin_bswap32(x)
#define _(s) (s)

typedef uint64_t xfs_ino_t;
typedef uint64_t xfs_timestamp_t;
struct xfs_legacy_timestamp { uint32_t t_sec, t_nsec; };
struct xfs_dinode { uint8_t di_version; uint64_t di_flags2; xfs_timestamp_t di_atime, di_mtime; };

static int no_modify;

__attribute__((format(printf, 1, 2))) static void do_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

/* Check nanoseconds of a timestamp don't exceed 1 second. */
static void
check_nsec(
	const char		*name,
	xfs_ino_t		lino,
	struct xfs_dinode	*dip,
	xfs_timestamp_t		*ts,
	int			*dirty)
{
// CHECK-MESSAGES: :[[@LINE-7]]:1: warning: check function 'check_nsec' keeps its reporting code inline on a hot path; move it to a cold function so the check can be inlined [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-8]]:1: note: 'check_nsec' is hot: 2 call sites, 2 in loops
	struct xfs_legacy_timestamp *t;

	if (xfs_dinode_has_bigtime(dip))
		return;

	t = (struct xfs_legacy_timestamp *)ts;
	if (be32_to_cpu(t->t_nsec) < NSEC_PER_SEC)
		return;

	do_warn(
_("Bad %s nsec %u on inode %" PRIu64 ", "), name, be32_to_cpu(t->t_nsec), lino);
	if (no_modify) {
		do_warn(_("would reset to zero\n"));
	} else {
		do_warn(_("resetting to zero\n"));
		t->t_nsec = 0;
		*dirty = 1;
	}
}

static struct xfs_dinode inodes[16];

static int scan(int n)
{
	int dirty = 0;
	for (int i = 0; i < n; i++) {
		check_nsec("atime", (xfs_ino_t)i, &inodes[i], &inodes[i].di_atime, &dirty);
		check_nsec("mtime", (xfs_ino_t)i, &inodes[i], &inodes[i].di_mtime, &dirty);
	}
	return dirty;
}

int main(int argc, char **argv)
{
	int n = 0;
	no_modify = argc > 1 && argv[1][0] == 'n';
	for (int i = 2; i + 2 < argc && n < 16; i += 3, n++) {
		struct xfs_legacy_timestamp *t = (struct xfs_legacy_timestamp *)&inodes[n].di_atime;
		inodes[n].di_version = (uint8_t)atoi(argv[i]);
		inodes[n].di_flags2 = XFS_DIFLAG2_BIGTIME;
		t->t_nsec = cpu_to_be32((uint32_t)strtoul(argv[i + 1], NULL, 0));
		t = (struct xfs_legacy_timestamp *)&inodes[n].di_mtime;
		t->t_nsec = cpu_to_be32((uint32_t)strtoul(argv[i + 2], NULL, 0));
	}
	int dirty = scan(n);
	for (int i = 0; i < n; i++)
		printf("%llx %llx\n", (unsigned long long)inodes[i].di_atime,
		       (unsigned long long)inodes[i].di_mtime);
	printf("dirty %d\n", dirty);
	return dirty;
}
