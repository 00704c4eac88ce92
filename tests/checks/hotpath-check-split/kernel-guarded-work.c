// hotpath-options: RuleSet=linux-kernel; MultiBranchThreshold=1; SingleBranchThreshold=1
// Linux 6.1 functions that are not check functions (issue 26): a guard
// `if (nothing to do) return ...;` followed by the function's work, which
// reports on the way. A failure path says what is wrong first and runs no
// loop; these begin with a lock, or loop over items: no finding (before,
// the guard's return was taken for success and the work for an unlikely
// failure, sending the common case down the slow path).
#include <stdbool.h>

#define unlikely(x) __builtin_expect(!!(x), 0)
#define EAGAIN 11
#define EUCLEAN 117

struct btrfs_fs_info;
__attribute__((__format__(printf, 2, 3))) void btrfs_err(const struct btrfs_fs_info *f, const char *fmt, ...);
__attribute__((__format__(printf, 2, 3))) void btrfs_info(const struct btrfs_fs_info *f, const char *fmt, ...);
struct eb { const struct btrfs_fs_info *fs_info; unsigned long start, gen; unsigned nritems; int uptodate; };
void lock_extent(struct eb *eb);
void unlock_extent(struct eb *eb);

static int verify_parent_transid(struct eb *eb, unsigned long parent_transid, int atomic)
{
	int ret;

	if (!parent_transid || eb->gen == parent_transid)
		return 0;

	if (atomic)
		return -EAGAIN;

	lock_extent(eb);
	if (eb->uptodate && eb->gen == parent_transid) {
		ret = 0;
		goto out;
	}
	btrfs_err(eb->fs_info, "parent transid verify failed on %lu", eb->start);
	ret = 1;
	eb->uptodate = 0;
out:
	unlock_extent(eb);
	return ret;
}

static int check_leaf(struct eb *leaf, const unsigned long *keys)
{
	unsigned nritems = leaf->nritems;

	if (unlikely(nritems == 0))
		return 0;

	for (unsigned slot = 1; slot < nritems; slot++) {
		if (unlikely(keys[slot - 1] >= keys[slot])) {
			btrfs_err(leaf->fs_info, "bad key order at slot %u", slot);
			return -EUCLEAN;
		}
	}
	return 0;
}

static void print_leaf(struct eb *l, const unsigned long *keys)
{
	if (!l)
		return;
	btrfs_info(l->fs_info, "leaf %lu total ptrs %u", l->start, l->nritems);
	for (unsigned i = 0; i < l->nritems; i++)
		btrfs_info(l->fs_info, "\titem %u key %lu", i, keys[i]);
}

int read_all(struct eb *ebs, const unsigned long *keys, int n)
{
	int r = 0;
	for (int i = 0; i < n; i++) {
		r += verify_parent_transid(&ebs[i], 7, i & 1);
		r += check_leaf(&ebs[i], keys);
		print_leaf(&ebs[i], keys);
	}
	return r;
}
