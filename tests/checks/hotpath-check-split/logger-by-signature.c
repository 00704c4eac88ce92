// hotpath-args: -std=gnu11
// Project loggers that no rule set names, seen by their signature with the
// default rule set: btrfs_warn is a macro over a printf-format function
// wrapped in calls to empty functions (btrfs-progs' user-space
// rcu_read_lock()); log_msg is variadic, named like a logger, and handed a
// literal format.
#include <stdbool.h>

struct fs_info;
__attribute__((format(printf, 2, 3)))
void btrfs_no_printk(const struct fs_info *fs_info, const char *fmt, ...);
static inline void rcu_read_lock(void) {}
static inline void rcu_read_unlock(void) {}
#define btrfs_warn(fs_info, fmt, args...) \
	do { rcu_read_lock(); btrfs_no_printk(fs_info, fmt, ##args); rcu_read_unlock(); } while (0)

void log_msg(int level, const char *fmt, ...);

struct extent_buffer { const struct fs_info *fs_info; unsigned long len; };

static bool check_setget_bounds(const struct extent_buffer *eb, unsigned long off, unsigned size)
{
// CHECK-MESSAGES: :[[@LINE-2]]:13: warning: check function 'check_setget_bounds' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:13: note: 'check_setget_bounds' is hot: 1 call site, 1 in loops
	const unsigned long end = off + size;

	if (off > eb->len) {
		btrfs_warn(eb->fs_info, "bad eb member start %lu", off);
		return false;
	}
	if (end > eb->len) {
		btrfs_warn(eb->fs_info, "bad eb member end %lu", end);
		return false;
	}
	return true;
}

static int check_slot(unsigned slot, unsigned nr)
{
// CHECK-MESSAGES: :[[@LINE-2]]:12: warning: check function 'check_slot' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:12: note: 'check_slot' is hot: 1 call site, 1 in loops
	if (slot >= nr) {
		log_msg(3, "slot %u of %u", slot, nr);
		return -1;
	}
	if (nr > 255) {
		log_msg(3, "%u slots", nr);
		return -1;
	}
	return 0;
}

unsigned long walk(const struct extent_buffer *eb, const unsigned *slots, int n)
{
	unsigned long t = 0;
	for (int i = 0; i < n; i++) {
		if (check_setget_bounds(eb, slots[i], 4))
			t += slots[i];
		if (check_slot(slots[i], 16) == 0)
			t++;
	}
	return t;
}
