// A hook that acts only while a global callback is set (SQLite's benign
// malloc hooks): its gate is that global, tested at the call site; no flag.
struct hooks { void (*xBegin)(void); void (*xEnd)(void); };
static struct hooks hooks;

__attribute__((noinline)) void begin_benign(void)
{
	if (hooks.xBegin)
		hooks.xBegin();
}

void set_hooks(void (*b)(void), void (*e)(void))
{
	hooks.xBegin = b;
	hooks.xEnd = e;
}

int fill(int *a, int n)
{
	int i, s = 0;

	for (i = 0; i < n; i++) {
		begin_benign();
		// CHECK-MESSAGES: :[[@LINE-1]]:3: warning: hot call to hook 'begin_benign', which does nothing unless switched on; test an inline gate first so the disabled case makes no call [hotpath-hook-gate]
		// CHECK-MESSAGES: :[[@LINE-19]]:32: note: 'begin_benign' is a hook: it does something only while 'hooks.xBegin' holds in this configuration, and it is kept out of line (noinline)
		// CHECK-MESSAGES: :[[@LINE-18]]:6: note: its gate is this switch, tested at the call site
		s += a[i];
	}
	return s;
}
