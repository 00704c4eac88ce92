// hotpath-options: RuleSet=linux-kernel
// A user-space copy of kernel code (btrfs-progs' kerncompat.h): the
// kernel's spelling macros are defined, but expand to nothing or to their
// argument. The fix does not trust their names: it spells the cold and
// noinline attributes and __builtin_expect itself, and says so; the
// condition that already had unlikely() is not wrapped in a second hint.
#include <stdbool.h>

#define __cold
#define noinline
#define unlikely(x) (x)

struct fs_info;
void btrfs_warn(const struct fs_info *fs, const char *fmt, ...);

struct extent_buffer { const struct fs_info *fs_info; unsigned long len; };

static bool check_setget_bounds(const struct extent_buffer *eb, unsigned long off, int size)
{
// CHECK-MESSAGES: :[[@LINE-2]]:13: warning: check function 'check_setget_bounds' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:13: note: 'check_setget_bounds' is hot: 2 call sites, 2 inside assert-like macros
// CHECK-MESSAGES: :[[@LINE-4]]:13: note: the fix spells its hints itself: 'unlikely(x)' is '(x)', 'noinline' is empty and '__cold' is empty here, which does not do what the fix needs
	unsigned long end = off + size;

	if (unlikely(off > eb->len)) {
		btrfs_warn(eb->fs_info, "bad eb member start %lu", off);
		return false;
	}
	if (unlikely(end > eb->len)) {
		btrfs_warn(eb->fs_info, "bad eb member end %lu", end);
		return false;
	}
	return true;
}

#define ASSERT(expr) (void)(expr)

void set_u8(struct extent_buffer *eb, unsigned long off) { ASSERT(check_setget_bounds(eb, off, 1)); }
// CHECK-MESSAGES: :[[@LINE-1]]:67: note: this call throws away what 'check_setget_bounds' returns, so its caller may test the same bound again: built with clang -flto, such callers were slower after the fix with every fast-path shape measured (1.076 of the original with -flto, 1.085 with PGO+LTO, on samples/bounds-copy), and there is no fix where the compile command says so; not slower in any other build mode
void set_u16(struct extent_buffer *eb, unsigned long off) { ASSERT(check_setget_bounds(eb, off, 2)); }
