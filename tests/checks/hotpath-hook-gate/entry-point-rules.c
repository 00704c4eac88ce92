// hotpath-options: RuleSet=entry-point-rules.rules.yaml; NewGateWithSetters=true
// A hook no rule set names, in no loop: its call two inline functions below
// pool_alloc_node(), a hot entry point of the rule set (glob 'pool_alloc*'),
// is hot, and the note says the chain. Controls: the call in refill(),
// which the entry point makes behind a branch (2^19 < 2^20), and the one in
// drain(), on no chain from an entry point, are not hot.
#include <stdbool.h>
#include <stddef.h>
struct pool { void *free; unsigned long size; };

__attribute__((noinline)) bool should_fail_pool(struct pool *p)
{
	(void)p;
	return false;
}

static inline struct pool *pool_pre_alloc(struct pool *p)
{
	if (should_fail_pool(p))
	// CHECK-MESSAGES: :[[@LINE-1]]:6: warning: hot call to hook 'should_fail_pool', which does nothing unless switched on; test an inline gate first so the disabled case makes no call [hotpath-hook-gate]
	// CHECK-MESSAGES: :[[@LINE-10]]:32: note: 'should_fail_pool' is a hook: its body only returns false in this configuration, and it is kept out of line (noinline)
	// CHECK-MESSAGES: :[[@LINE-5]]:28: note: 'pool_pre_alloc' is hot: called by pool_take (entry-point-rules.c:32), which is called by pool_alloc_node (entry-point-rules.c:51), a hot entry point of the rule set 'entry-point-rules'
	// CHECK-MESSAGES: :[[@LINE-12]]:32: note: the new gate starts off: nothing in the program calls should_fail_pool_gate_enable() yet; whatever switches the hook on must, or the hook stays quiet
		return NULL;
	return p;
}

static inline __attribute__((always_inline)) void *pool_take(struct pool *p)
{
	void *obj;

	p = pool_pre_alloc(p);
	if (!p)
		return NULL;
	obj = p->free;
	if (obj)
		p->free = *(void **)obj;
	return obj;
}

static void refill(struct pool *p)
{
	if (should_fail_pool(p))
		p->size = 0;
}

void *pool_alloc_node(struct pool *p, int node)
{
	if (node > 64)
		refill(p);
	return pool_take(p);
}

int drain(struct pool *p)
{
	return should_fail_pool(p) ? 0 : 1;
}
