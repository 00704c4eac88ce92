// hotpath-args: -std=gnu11 -D__KERNEL__ -include kernel-kbuild-tested.h
// hotpath-options: RuleSet=linux-kernel
// hotpath-configurations: -U__KERNEL__
// As kernel-kbuild-spellings.c, but this file asks "#ifndef __KERNEL__"
// itself, and gives unlikely another definition there: it is written to be
// built without __KERNEL__ too, where noinline and __cold are not defined.
// check_setget_bounds expands unlikely, so unlikely is used; its use says
// nothing of __KERNEL__ here, and the fix spells the attributes itself.
#include <stdbool.h>
#include "kernel-kbuild-tested.h" /* as <linux/compiler.h> includes compiler_types.h again */

#ifndef __KERNEL__
#define unlikely(x) (x)
#endif

struct fs_info;
void btrfs_warn(const struct fs_info *fs, const char *fmt, ...);

struct extent_buffer { const struct fs_info *fs_info; unsigned long len; };

static bool check_setget_bounds(const struct extent_buffer *eb, unsigned long off, int size)
{
// CHECK-MESSAGES: :[[@LINE-2]]:13: warning: check function 'check_setget_bounds' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:13: note: 'check_setget_bounds' is hot: 2 call sites, 2 inside assert-like macros
	unsigned long end = off + size;

	if (unlikely(off > eb->len)) {
		btrfs_warn(eb->fs_info, "bad eb member start %lu", off);
		return false;
	}
	if (end > eb->len) {
		btrfs_warn(eb->fs_info, "bad eb member end %lu", end);
		return false;
	}
	return true;
}

#define ASSERT(expr) (void)(expr)

void set_u8(struct extent_buffer *eb, unsigned long off) { ASSERT(check_setget_bounds(eb, off, 1)); }
// CHECK-MESSAGES: :[[@LINE-1]]:67: note: this call throws away what 'check_setget_bounds' returns, so its caller may test the same bound again: built with clang -flto, such callers were slower after the fix with every fast-path shape measured (1.076 of the original with -flto, 1.085 with PGO+LTO, on samples/bounds-copy), and there is no fix where the compile command says so; not slower in any other build mode
void set_u16(struct extent_buffer *eb, unsigned long off) { ASSERT(check_setget_bounds(eb, off, 2)); }
