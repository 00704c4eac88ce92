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
		s += a[i];
	}
	return s;
}
