// hotpath-options: Explain=check_fs_open
// Explain mode says why a check function kept out of line and called in a
// loop is not a hook.
struct fs { int flags; };
static struct fs *current_fs;

void com_err(const char *whoami, long code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

__attribute__((noinline)) int check_fs_open(char *name)
// CHECK-MESSAGES: :[[@LINE-1]]:31: remark: explain 'check_fs_open': a function 'check_fs_open'; the steps of hotpath-hook-gate follow [hotpath-hook-gate]
// CHECK-MESSAGES: :[[@LINE-2]]:31: note: not a hook: it is a check function: while its condition holds it reports and returns a value other than the one it returns otherwise, which its callers test; gating its calls would only repeat that test ('!current_fs')
{
	if (!current_fs) {
		com_err(name, 0, "Filesystem not open");
		return 1;
	}
	return 0;
}

int run(char **argv, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (check_fs_open(argv[i]))
			return -1;
	return 0;
}
