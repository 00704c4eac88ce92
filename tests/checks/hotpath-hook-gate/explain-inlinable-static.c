// hotpath-options: Explain=trace_event
// Explain mode on an empty static hook that nothing keeps out of line: only
// calls in this file exist, and the compiler may inline them.
static void trace_event(int id)
// CHECK-MESSAGES: :[[@LINE-1]]:13: remark: explain 'trace_event': a function 'trace_event'; the steps of hotpath-hook-gate follow [hotpath-hook-gate]
// CHECK-MESSAGES: :[[@LINE-2]]:13: note: not a hook: nothing keeps it out of line on purpose (noinline, used, weak, an error-injection macro), so calls in this file may be inlined, and no other file can call it
{
	(void)id;
}

int run(int n)
{
	int i, s = 0;

	for (i = 0; i < n; i++) {
		trace_event(i);
		s += i;
	}
	return s;
}
