// hotpath-args: -std=gnu11
// hotpath-options: Explain=check_fs_open
// debugfs' check_fs_open (e2fsprogs): a check function with one branch,
// called once at the top of each command handler. Many call sites and no
// loop, accessor, assert, profile or name: it runs once per typed command,
// so it is not hot and gets no finding. The same check called in a loop is
// reported (check_open_in_loop). Explain mode says which rule decided.
#include <stdio.h>

struct fs { int blocks; };
static struct fs *current_fs;

static int check_fs_open(const char *name)
{
// CHECK-MESSAGES: :[[@LINE-2]]:12: remark: explain 'check_fs_open': a definition of function 'check_fs_open'; the steps of hotpath-check-split follow [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:12: note: a check function: 1 branch(es) that report and leave, then the success path
// CHECK-MESSAGES: :[[@LINE-4]]:12: note: not hot: call sites alone never make a function hot; it needs a call in a loop, from a macro-generated accessor or in an assert-like macro, a chain of calls with 2 loop(s) on it, a profile, or a name in HotFunctions or the rule set (9 call sites)
	if (!current_fs) {
		fprintf(stderr, "%s: filesystem not open\n", name);
		return 1;
	}
	return 0;
}

static int check_open_in_loop(const char *name)
{
// CHECK-MESSAGES: :[[@LINE-2]]:12: warning: check function 'check_open_in_loop' keeps its reporting code inline on a hot path; move it to a cold function so the check can be inlined [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:12: note: 'check_open_in_loop' is hot: 3 call sites, 3 in loops
	if (!current_fs) {
		fprintf(stderr, "%s: filesystem not open\n", name);
		return 1;
	}
	return 0;
}

int do_stat(int argc, char **argv) { (void)argc; return check_fs_open(argv[0]); }
int do_ls(int argc, char **argv) { (void)argc; return check_fs_open(argv[0]); }
int do_cat(int argc, char **argv) { (void)argc; return check_fs_open(argv[0]); }
int do_dump(int argc, char **argv) { (void)argc; return check_fs_open(argv[0]); }
int do_rm(int argc, char **argv) { (void)argc; return check_fs_open(argv[0]); }
int do_ln(int argc, char **argv) { (void)argc; return check_fs_open(argv[0]); }
int do_mkdir(int argc, char **argv) { (void)argc; return check_fs_open(argv[0]); }
int do_rmdir(int argc, char **argv) { (void)argc; return check_fs_open(argv[0]); }
int do_blocks(int argc, char **argv) { (void)argc; return check_fs_open(argv[0]); }

int sum_blocks(char **names, int n)
{
	int total = 0;
	for (int i = 0; i < n; i++) {
		if (check_open_in_loop(names[i]))
			continue;
		if (check_open_in_loop(names[i]) || check_open_in_loop(names[i]))
			return -1;
		total += current_fs->blocks;
	}
	return total;
}

/* A loop that prints every row is no hot loop: the check costs little next
   to the output (btrfs-progs' JSON printers). No finding. */
static int check_row(const char *name, int row)
{
	if (row < 0) {
		fprintf(stderr, "%s: bad row %d\n", name, row);
		return 1;
	}
	return 0;
}

void print_rows(const char *name, const int *rows, int n)
{
	for (int i = 0; i < n; i++) {
		printf("row %d\n", rows[i]);
		if (check_row(name, rows[i]) || check_row(name, rows[i] + 1))
			continue;
		printf("ok %d\n", check_row(name, rows[i] - 1));
	}
}
