// Check functions, not hooks (e2fsprogs' debugfs check_fs_open()): while
// their condition holds they report and return a failure that the callers
// test, or they act while a pointer is null. Kept out of line and called in
// a loop, they get no finding; the callback hook beside them still does.
#include <stddef.h>
#include <stdio.h>

struct fs { int flags; };
static struct fs *current_fs;
static int (*trace_cb)(int);

void com_err(const char *whoami, long code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

__attribute__((noinline)) int check_fs_open(char *name)
{
	if (!current_fs) {
		com_err(name, 0, "Filesystem not open");
		return 1;
	}
	return 0;
}

// Reports through fprintf, and the pointer test is spelt `== NULL`.
__attribute__((noinline)) int check_fs_loaded(void)
{
	if (current_fs == NULL) {
		fprintf(stderr, "no filesystem\n");
		return -1;
	}
	return 0;
}

// No report, but it acts while the pointer is null: an error check.
__attribute__((noinline)) int fs_missing(void)
{
	if (NULL == current_fs)
		return 1;
	return 0;
}

// A hook: it acts while its callback is set.
__attribute__((noinline)) int trace_hook(int x)
{
	if (trace_cb)
		return trace_cb(x);
	return 0;
}

int run(char **argv, int n)
{
	int i, s = 0;

	for (i = 0; i < n; i++) {
		if (check_fs_open(argv[i]))
			return -1;
		if (check_fs_loaded() || fs_missing())
			return -2;
		s += trace_hook(i);
		// CHECK-MESSAGES: :[[@LINE-1]]:8: warning: hot call to hook 'trace_hook', which does nothing unless switched on; test an inline gate first so the disabled case makes no call [hotpath-hook-gate]
		// CHECK-MESSAGES: :[[@LINE-18]]:31: note: 'trace_hook' is a hook: it does something only while 'trace_cb' holds in this configuration, and it is kept out of line (noinline)
		// CHECK-MESSAGES: :[[@LINE-17]]:6: note: its gate is this switch, tested at the call site
	}
	return s;
}
