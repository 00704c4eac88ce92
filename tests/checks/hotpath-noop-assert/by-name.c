// hotpath-args: -std=c11
// Names the rule set does not list but its patterns do (*ASSERT*, *_BUGON,
// DCHECK*), the erofs-utils DBG_BUGON among them; a pattern adds nothing to
// a macro that must evaluate (BUG_ON), nor to one whose disabled form already
// costs nothing.
#include <assert.h>

#define BUG_ON(cond) assert(!(cond))
#ifdef NDEBUG
#define DBG_BUGON(condition) ((void)(condition))
// CHECK-MESSAGES: :[[@LINE-1]]:9: warning: disabled assert 'DBG_BUGON' still evaluates its argument; make it type-check the argument without evaluating it [hotpath-noop-assert]
// CHECK-MESSAGES: :[[@LINE+17]]:2: note: its use here does work the compiler must keep: it calls 'buf_valid', whose body is not visible and which is not known to be pure
#else
#define DBG_BUGON(condition) BUG_ON(condition)
#endif
#define FOO_ASSERT(x) (void)(x)
// CHECK-MESSAGES: :[[@LINE-1]]:9: warning: disabled assert 'FOO_ASSERT' still evaluates its argument; make it type-check the argument without evaluating it [hotpath-noop-assert]
// CHECK-MESSAGES: :[[@LINE+12]]:2: note: its use here does work the compiler must keep: it calls 'buf_valid', whose body is not visible and which is not known to be pure
#define DCHECK_PTR(p) do { (void)(p); } while (0)
// CHECK-MESSAGES: :[[@LINE-1]]:9: warning: disabled assert 'DCHECK_PTR' still evaluates its argument; make it type-check the argument without evaluating it [hotpath-noop-assert]
#define STATIC_ASSERT(expr) ((void)sizeof(char[1 - 2 * !(expr)]))

struct buf { unsigned len; const char *p; };
int buf_valid(const struct buf *b);

int fill(struct buf *b, unsigned n)
{
	STATIC_ASSERT(sizeof(unsigned) >= 4);
	DBG_BUGON(!buf_valid(b));
	FOO_ASSERT(buf_valid(b));
	DCHECK_PTR(buf_valid(b) ? b->p : 0);
	// CHECK-MESSAGES: :[[@LINE-1]]:2: note: its use here does work the compiler must keep: it calls 'buf_valid', whose body is not visible and which is not known to be pure
	BUG_ON(n > b->len);
	return b->p[0];
}
