// The switch read into a local first, as SQLite's sqlite3FaultSim() does
// (`int (*xCallback)(int) = sqlite3GlobalConfig.xTestCallback; return
// xCallback ? xCallback(iTest) : SQLITE_OK;`), and the same with an if: the
// gate is the global read, spelt through the project's macro as the hook
// spells it; installing the callback with the program's own setter still
// makes the hook fire.
struct config { int (*xTestCallback)(int); void (*xTrace)(int); };
static struct config theConfig;
#define GlobalConfig theConfig

__attribute__((noinline)) int fault_sim(int iTest)
{
	int (*xCallback)(int) = GlobalConfig.xTestCallback;
	return xCallback ? xCallback(iTest) : 0;
}

__attribute__((noinline)) int fault_sim_if(int iTest)
{
	int (*xCallback)(int) = GlobalConfig.xTestCallback;
	if (xCallback != 0)
		return xCallback(iTest);
	return 0;
}

__attribute__((noinline)) void trace(int x)
{
	void (*xTrace)(int) = theConfig.xTrace;
	if (xTrace)
		xTrace(x);
}

void fault_install(int (*cb)(int))
{
	GlobalConfig.xTestCallback = cb;
}

int work(int n)
{
	int i, done = 0;

	for (i = 0; i < n; i++) {
		if (fault_sim(i))
		// CHECK-MESSAGES: :[[@LINE-1]]:7: warning: hot call to hook 'fault_sim', which does nothing unless switched on; test an inline gate first so the disabled case makes no call [hotpath-hook-gate]
		// CHECK-MESSAGES: :[[@LINE-33]]:31: note: 'fault_sim' is a hook: it does something only while 'GlobalConfig.xTestCallback' holds in this configuration, and it is kept out of line (noinline)
		// CHECK-MESSAGES: :[[@LINE-32]]:26: note: its gate is this switch, tested at the call site
		// CHECK-MESSAGES: :[[@LINE-37]]:22: note: expanded from macro 'GlobalConfig'
			return -1;
		if (fault_sim_if(i))
		// CHECK-MESSAGES: :[[@LINE-1]]:7: warning: hot call to hook 'fault_sim_if', which does nothing unless switched on; test an inline gate first so the disabled case makes no call [hotpath-hook-gate]
		// CHECK-MESSAGES: :[[@LINE-33]]:31: note: 'fault_sim_if' is a hook: it does something only while 'GlobalConfig.xTestCallback' holds in this configuration, and it is kept out of line (noinline)
		// CHECK-MESSAGES: :[[@LINE-32]]:26: note: its gate is this switch, tested at the call site
		// CHECK-MESSAGES: :[[@LINE-43]]:22: note: expanded from macro 'GlobalConfig'
			return -2;
		trace(i);
		// CHECK-MESSAGES: :[[@LINE-1]]:3: warning: hot call to hook 'trace', which does nothing unless switched on; test an inline gate first so the disabled case makes no call [hotpath-hook-gate]
		// CHECK-MESSAGES: :[[@LINE-31]]:32: note: 'trace' is a hook: it does something only while 'theConfig.xTrace' holds in this configuration, and it is kept out of line (noinline)
		// CHECK-MESSAGES: :[[@LINE-30]]:24: note: its gate is this switch, tested at the call site
		done++;
	}
	return done;
}
