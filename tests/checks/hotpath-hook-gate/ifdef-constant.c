// hotpath-configurations: -DCONFIG_FAIL_IO
// hotpath-options: NewGateWithSetters=true
// A noinline hook whose body #ifdef leaves as "return 0": its value is used in a
// condition and in an assignment; each call is gated in place.
#include <stdbool.h>

__attribute__((noinline)) int should_fail_io(unsigned long sector)
{
#ifdef CONFIG_FAIL_IO
	return sector % 7 == 0;
#endif
	(void)sector;
	return 0;
}

int submit(unsigned long *sectors, int n)
{
	int i, err = 0;

	for (i = 0; i < n; i++) {
		if (should_fail_io(sectors[i]))
		// CHECK-MESSAGES: :[[@LINE-1]]:7: warning: hot call to hook 'should_fail_io', which does nothing unless switched on; test an inline gate first so the disabled case makes no call [hotpath-hook-gate]
		// CHECK-MESSAGES: :[[@LINE-16]]:31: note: 'should_fail_io' is a hook: its body only returns 0 in this configuration, and it is kept out of line (noinline)
			return -5;
		err = should_fail_io(sectors[i] + 1);
		// CHECK-MESSAGES: :[[@LINE-1]]:9: note: another call to 'should_fail_io' in 'submit', gated by the same fix
		if (err)
			break;
		should_fail_io(sectors[i]);
		// CHECK-MESSAGES: :[[@LINE-1]]:3: note: another call to 'should_fail_io' in 'submit', gated by the same fix
		// CHECK-MESSAGES: :[[@LINE-24]]:31: note: the new gate starts off: nothing in the program calls should_fail_io_gate_enable() yet; whatever switches the hook on must, or the hook stays quiet
	}
	return err;
}
