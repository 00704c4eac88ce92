// hotpath-args: -std=gnu11 -D__KERNEL__ -include kernel-kbuild-spellings.h
// hotpath-options: RuleSet=linux-kernel
// hotpath-configurations: -DCONFIG_TRACE_BRANCH_PROFILING
// The kernel's unlikely, noinline and __cold come from headers that define
// them only under #ifndef __ASSEMBLY__ and #ifdef __KERNEL__, which no C file
// tests (kbuild passes -D__KERNEL__). check_setget_bounds expands unlikely
// itself, so unlikely is defined wherever it is compiled, and so are both
// conditions (unlikely's only definition needs them): the fix uses unlikely,
// noinline and __cold, as fs/btrfs/struct-funcs.c of Linux 6.1 does.
#include <stdbool.h>
#include "kernel-kbuild-spellings.h" /* as <linux/compiler.h> includes compiler_types.h again */

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
