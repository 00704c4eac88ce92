// hotpath-options: Explain=trace_event
// Explain mode on an empty hook that nothing keeps out of line: calls in
// this file may be inlined; calls from other files could not be, but
// without a project index none is known. The reason says which.
void trace_event(int id)
// CHECK-MESSAGES: :[[@LINE-1]]:6: remark: explain 'trace_event': a function 'trace_event'; the steps of hotpath-hook-gate follow [hotpath-hook-gate]
// CHECK-MESSAGES: :[[@LINE-2]]:6: note: not a hook: nothing keeps it out of line on purpose (noinline, used, weak, an error-injection macro), so calls in this file may be inlined; calls from other files cannot be without LTO, but without a project index (ProjectIndex) none is known
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
