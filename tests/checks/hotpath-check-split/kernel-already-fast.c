// hotpath-options: RuleSet=linux-kernel; MultiBranchThreshold=1; SingleBranchThreshold=1
// btrfs' check_setget_bounds() as 6.1 has it, after the 2022 fix: one branch,
// hinted unlikely, whose reporting is one call to the cold printk (through
// the btrfs_warn macro). Already in the fast-path form: not reported (issue
// 26). The same check reporting through a logger that is not cold is.
// btrfs_check_eb_owner() (tree-checker.c): two branches, one under a guard,
// each hinted unlikely and reporting through the cold btrfs_crit: not
// reported either; with one branch not hinted unlikely, it is.
#include <stdbool.h>

#define unlikely(x) __builtin_expect(!!(x), 0)
#define __cold __attribute__((__cold__))
#define __printf(a, b) __attribute__((__format__(printf, a, b)))

struct btrfs_fs_info;
__printf(2, 3) __cold void btrfs_printk(const struct btrfs_fs_info *fs_info, const char *fmt, ...);
#define btrfs_warn(fs_info, fmt, args...) btrfs_printk(fs_info, fmt, ##args)
#define btrfs_crit(fs_info, fmt, args...) btrfs_printk(fs_info, fmt, ##args)
#define EUCLEAN 117
__printf(2, 3) void plain_printk(const struct btrfs_fs_info *fs_info, const char *fmt, ...);

struct extent_buffer { const struct btrfs_fs_info *fs_info; unsigned long len, start; };

static bool check_setget_bounds(const struct extent_buffer *eb, const void *ptr, unsigned off, int size)
{
	const unsigned long member_offset = (unsigned long)ptr + off;
	if (unlikely(member_offset + size > eb->len)) {
		btrfs_warn(eb->fs_info,
		"bad eb member %s: ptr 0x%lx start %lu member offset %lu size %d",
			(member_offset > eb->len ? "start" : "end"),
			(unsigned long)ptr, eb->start, member_offset, size);
		return false;
	}
	return true;
}

static bool check_plain(const struct extent_buffer *eb, unsigned long off)
{
// CHECK-MESSAGES: :[[@LINE-2]]:13: warning: check function 'check_plain' keeps its reporting code inline on a hot path; move it to a cold function so the check can be inlined [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:13: note: 'check_plain' is hot: 1 call site, 1 in loops
	if (unlikely(off > eb->len)) {
		plain_printk(eb->fs_info, "bad offset %lu", off);
		return false;
	}
	return true;
}

static int check_eb_owner(const struct extent_buffer *eb, unsigned long owner, bool subvol)
{
	if (owner == 0)
		return 0;
	if (!subvol) {
		if (unlikely(owner != eb->start)) {
			btrfs_crit(eb->fs_info, "owner mismatch, have %lu expect %lu", eb->start, owner);
			return -EUCLEAN;
		}
		return 0;
	}
	if (unlikely(eb->start < 256)) {
		btrfs_crit(eb->fs_info, "owner %lu too small", eb->start);
		return -EUCLEAN;
	}
	return 0;
}

static int check_eb_owner_unhinted(const struct extent_buffer *eb, unsigned long owner)
{
// CHECK-MESSAGES: :[[@LINE-2]]:12: warning: check function 'check_eb_owner_unhinted' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:12: note: 'check_eb_owner_unhinted' is hot: 1 call site, 1 in loops
	if (unlikely(owner != eb->start)) {
		btrfs_crit(eb->fs_info, "owner mismatch, have %lu expect %lu", eb->start, owner);
		return -EUCLEAN;
	}
	if (eb->start < 256) {
		btrfs_crit(eb->fs_info, "owner %lu too small", eb->start);
		return -EUCLEAN;
	}
	return 0;
}

int walk(const struct extent_buffer *eb, const char *p, unsigned n)
{
	int ok = 0;
	for (unsigned i = 0; i < n; i++)
		ok += check_setget_bounds(eb, p, i, 4) + check_plain(eb, i) +
		      check_eb_owner(eb, i, i & 1) + check_eb_owner_unhinted(eb, i);
	return ok;
}
