// hotpath-options: GateStyle=atomic; NewGateWithSetters=true
// hotpath-args: -std=c++20
// C++20: std::atomic<bool> gate, the accessor marked [[unlikely]].
struct Conn { int fd; int sent; };

[[gnu::noinline]] static bool inject_send_error(const Conn &c)
{
	(void)c;
	return false;
}

int send_all(Conn *cs, int n)
{
	int sent = 0;
	for (int i = 0; i < n; i++) {
		if (inject_send_error(cs[i]))
		// CHECK-MESSAGES: :[[@LINE-1]]:7: warning: hot call to hook 'inject_send_error', which does nothing unless switched on; test an inline gate first so the disabled case makes no call [hotpath-hook-gate]
		// CHECK-MESSAGES: :[[@LINE-12]]:31: note: 'inject_send_error' is a hook: its body only returns false in this configuration, and it is kept out of line (noinline)
		// CHECK-MESSAGES: :[[@LINE-13]]:31: note: the new gate starts off: nothing in the program calls inject_send_error_gate_enable() yet; whatever switches the hook on must, or the hook stays quiet
			continue;
		cs[i].sent++;
		sent++;
	}
	return sent;
}
