// hotpath-options: Explain=fs_missing
// Explain mode on an error check that acts while a pointer is null, without
// reporting: not a hook either.
#include <stddef.h>
struct fs { int flags; };
static struct fs *current_fs;

__attribute__((noinline)) int fs_missing(void)
// CHECK-MESSAGES: :[[@LINE-1]]:31: remark: explain 'fs_missing': a function 'fs_missing'; the steps of hotpath-hook-gate follow [hotpath-hook-gate]
// CHECK-MESSAGES: :[[@LINE-2]]:31: note: not a hook: it is an error check: it acts while a pointer is null, and a hook acts while its callback or flag is set ('NULL == current_fs')
{
	if (NULL == current_fs)
		return 1;
	return 0;
}

int run(int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (fs_missing())
			return -1;
	return 0;
}
