// hotpath-options: RuleSet=linux-kernel
// Issue 26: mm/slub.c's allocation path (Linux 6.1), reduced. No loop is
// in sight: kmem_cache_alloc() runs often because everything allocates, so
// the linux-kernel rule set names it a hot entry point, and the call to
// should_failslab() in slab_pre_alloc_hook() (mm/slab.h) is hot through the
// always-inline chain down to it. The note says the chain. The hook's call
// in slab_debug_check(), on no chain from an entry point, is hot only by
// the rule set's name for the hook: no chain note.
#include <stdbool.h>
#include <stddef.h>
/* Stand-ins for <linux/jump_label.h> and <linux/compiler.h>. */
struct static_key_false { int enabled; };
#define DECLARE_STATIC_KEY_FALSE(name) extern struct static_key_false name
#define DEFINE_STATIC_KEY_FALSE(name) struct static_key_false name = { 0 }
#define static_branch_unlikely(key) __builtin_expect((key)->enabled, 0)
#define static_branch_enable(key) ((key)->enabled = 1)
#define static_branch_disable(key) ((key)->enabled = 0)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define __always_inline inline __attribute__((__always_inline__))
typedef unsigned int gfp_t;
struct kmem_cache { void *freelist; unsigned int object_size; };

int should_failslab(struct kmem_cache *s, gfp_t gfpflags);

static inline struct kmem_cache *slab_pre_alloc_hook(struct kmem_cache *s, gfp_t flags)
{
	if (should_failslab(s, flags))
	// CHECK-MESSAGES: :[[@LINE-1]]:6: warning: hot call to hook 'should_failslab', which does nothing unless switched on; test an inline gate first so the disabled case makes no call [hotpath-hook-gate]
	// CHECK-MESSAGES: :[[@LINE-6]]:5: note: 'should_failslab' is a hook: the rule set names it as a hook that returns 0 while it does nothing
	// CHECK-MESSAGES: :[[@LINE-5]]:34: note: 'slab_pre_alloc_hook' is hot: called by slab_alloc_node (kernel-entry-point.c:40), which is called by slab_alloc (kernel-entry-point.c:52), which is called by __kmem_cache_alloc_lru (kernel-entry-point.c:57), which is called by kmem_cache_alloc (kernel-entry-point.c:62), a hot entry point of the rule set 'linux-kernel'
	// CHECK-MESSAGES: :[[@LINE-8]]:5: note: the new gate starts off: the failslab fault attribute and fail_function (ALLOW_ERROR_INJECTION) must call should_failslab_gate_enable(), or the hook stays quiet
		return NULL;
	return s;
}

static __always_inline void *slab_alloc_node(struct kmem_cache *s, gfp_t gfpflags)
{
	void *object;

	s = slab_pre_alloc_hook(s, gfpflags);
	if (!s)
		return NULL;
	object = s->freelist;
	if (unlikely(!object))
		return NULL;
	s->freelist = *(void **)object;
	return object;
}

static __always_inline void *slab_alloc(struct kmem_cache *s, gfp_t gfpflags)
{
	return slab_alloc_node(s, gfpflags);
}

static __always_inline void *__kmem_cache_alloc_lru(struct kmem_cache *s, gfp_t gfpflags)
{
	return slab_alloc(s, gfpflags);
}

void *kmem_cache_alloc(struct kmem_cache *s, gfp_t gfpflags)
{
	return __kmem_cache_alloc_lru(s, gfpflags);
}

bool slab_debug_check(struct kmem_cache *s)
{
	return should_failslab(s, 0) == 0;
	// CHECK-MESSAGES: :[[@LINE-1]]:9: warning: hot call to hook 'should_failslab', which does nothing unless switched on; test an inline gate first so the disabled case makes no call [hotpath-hook-gate]
	// CHECK-MESSAGES: :[[@LINE-46]]:5: note: 'should_failslab' is a hook: the rule set names it as a hook that returns 0 while it does nothing
	// CHECK-MESSAGES: :[[@LINE-47]]:5: note: the new gate starts off: the failslab fault attribute and fail_function (ALLOW_ERROR_INJECTION) must call should_failslab_gate_enable(), or the hook stays quiet
}
