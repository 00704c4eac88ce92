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
			continue;
		cs[i].sent++;
		sent++;
	}
	return sent;
}
