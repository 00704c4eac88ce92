// hotpath-configurations: -DTRACE_END
// Hooks whose body differs by configuration where no gate can follow it:
// a global switch tested only in one configuration (the call site would
// test the wrong one in the other).
struct hooks { void (*xBegin)(void); void (*xEnd)(void); };
static struct hooks hooks;

__attribute__((noinline)) void begin_benign(void)
{
#ifdef TRACE_END
	if (hooks.xEnd)
		hooks.xEnd();
#else
	if (hooks.xBegin)
		hooks.xBegin();
#endif
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
		// CHECK-MESSAGES: :[[@LINE-24]]:32: note: 'begin_benign' is a hook: it does something only while 'hooks.xBegin' holds in this configuration, and it is kept out of line (noinline)
		// CHECK-MESSAGES: :[[@LINE-19]]:6: note: its gate is this switch, tested at the call site
		// CHECK-MESSAGES: :[[@LINE-24]]:1: note: no fix: the hook's switch is tested differently under '#ifdef TRACE_END', so no one test at the call site is right in every configuration
		s += a[i];
	}
	return s;
}
