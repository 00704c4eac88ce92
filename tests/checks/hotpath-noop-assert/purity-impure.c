// hotpath-args: -std=c11
// A visible body that writes is a side effect, said as what it writes and
// through which calls: the definition is not rewritten.
#define ASSERT(x) (void)(x)
// CHECK-MESSAGES: :[[@LINE-1]]:9: warning: disabled assert 'ASSERT' still evaluates its argument; make it type-check the argument without evaluating it [hotpath-noop-assert]
// CHECK-MESSAGES: :[[@LINE+15]]:2: note: its use here does work the compiler must keep: it calls 'valid', which calls 'note_checked', which increments 'checked'
// CHECK-MESSAGES: :[[@LINE-3]]:9: note: no fix: 1 use of 'ASSERT' in this translation unit needs the argument evaluated

static int checked;

static inline int note_checked(int v)
{
	checked++;
	return v;
}

static inline int valid(int v) { return note_checked(v) > 0; }

int get(int v)
{
	ASSERT(valid(v));
	// CHECK-MESSAGES: :[[@LINE-1]]:2: warning: argument of 'ASSERT' has a side effect (it calls 'valid', which calls 'note_checked', which increments 'checked'); a disabled 'ASSERT' that does not evaluate its argument would lose it, so the definition of 'ASSERT' is not rewritten [hotpath-noop-assert]
	// CHECK-MESSAGES: :[[@LINE-10]]:2: note: the state changes here
	return v + checked;
}
