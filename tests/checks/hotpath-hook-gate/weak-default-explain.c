// hotpath-options: Explain=copy_allowed
// Why a weak default is no hook (mm/maccess.c's
// copy_from_kernel_nofault_allowed(), which arch/x86/mm/maccess.c replaces:
// a subtree's compile database does not hold the override).
#include <stdbool.h>

__attribute__((weak)) bool copy_allowed(const void *src, unsigned long size)
{
// CHECK-MESSAGES: :[[@LINE-2]]:28: remark: explain 'copy_allowed': a function 'copy_allowed'; the steps of hotpath-hook-gate follow [hotpath-hook-gate]
// CHECK-MESSAGES: :[[@LINE-3]]:28: note: not a hook: it is a weak default, which a non-weak definition in another file replaces at link time; whether one is linked is more than a compile database shows (a subtree's, an architecture's override outside it), so only a rule set or HookFunctions naming it makes it a hook
	(void)src;
	(void)size;
	return true;
}

int copy_all(const void **srcs, int n)
{
	int copied = 0;

	for (int i = 0; i < n; i++)
		if (copy_allowed(srcs[i], 8))
			copied++;
	return copied;
}
