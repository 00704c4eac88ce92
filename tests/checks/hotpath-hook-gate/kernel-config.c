// hotpath-options: RuleSet=linux-kernel
// hotpath-configurations: -DCONFIG_FAIL_IO
// A static key's type fixes whether it starts on: a hook whose body differs
// by configuration (it acts under CONFIG_FAIL_IO) cannot get one.
#include <stdbool.h>

#define noinline __attribute__((__noinline__))

static noinline bool should_fail_bio(unsigned long sector)
{
#ifdef CONFIG_FAIL_IO
	return sector % 7 == 0;
#endif
	(void)sector;
	return false;
}

int submit_bios(const unsigned long *sectors, int n)
{
	int failed = 0;

	for (int i = 0; i < n; i++)
		if (should_fail_bio(sectors[i]))
		// CHECK-MESSAGES: :[[@LINE-1]]:7: warning: hot call to hook 'should_fail_bio', which does nothing unless switched on; test an inline gate first so the disabled case makes no call [hotpath-hook-gate]
		// CHECK-MESSAGES: :[[@LINE-16]]:22: note: 'should_fail_bio' is a hook: its body only returns false in this configuration, and it is kept out of line (noinline)
		// CHECK-MESSAGES: :[[@LINE-17]]:22: note: no fix: the hook does nothing only under '#ifndef CONFIG_FAIL_IO' (its body has #if inside); elsewhere its gate must start on, and a static key's type fixes its start value in every configuration
			failed++;
	return failed;
}
