// hotpath-args: -std=gnu11
// hotpath-options: RuleSet=linux-kernel
// The kernel's lockdep_assert_held() without CONFIG_LOCKDEP (lockdep.h, 6.1):
// an assert by its twin, whose disabled form still evaluates its argument.
// mm/slub.c passes it addresses (&n->list_lock) and per-CPU pointers: a
// statement expression that declares a local, gives it a value (RELOC_HIDE's
// `__ptr = (unsigned long)(ptr)`, clang's form), computes with it and runs a
// pure asm (x86's arch_raw_cpu_ptr), and an inline accessor that only reads,
// through a volatile READ_ONCE. None of these calls a function that does
// work: nothing to gain, no finding, and the write to the statement
// expression's own local is no side effect.
#include <stdbool.h>

#ifdef CONFIG_LOCKDEP
bool lock_is_held(const void *lock);
#define lockdep_assert(cond) do { if (!(cond)) __builtin_trap(); } while (0)
#define lockdep_assert_held(l) lockdep_assert(lock_is_held(l))
#else
#define lockdep_assert_held(l) do { (void)(l); } while (0)
#endif

#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))

extern unsigned long this_cpu_off;

#define __verify_pcpu_ptr(ptr)                                                 \
	do {                                                                   \
		const void *__vpp_verify = (__typeof__((ptr) + 0))0;           \
		(void)__vpp_verify;                                            \
	} while (0)
#define RELOC_HIDE(ptr, off)                                                   \
	({                                                                     \
		unsigned long __ptr;                                           \
		__ptr = (unsigned long)(ptr);                                  \
		(__typeof__(ptr))(__ptr + (off));                              \
	})
#define per_cpu_ptr(ptr, cpu)                                                  \
	({                                                                     \
		__verify_pcpu_ptr(ptr);                                        \
		RELOC_HIDE(ptr, (cpu) * 4096UL);                               \
	})
#define arch_raw_cpu_ptr(ptr)                                                  \
	({                                                                     \
		unsigned long tcp_ptr__;                                       \
		asm("add %1, %0" : "=r"(tcp_ptr__) : "m"(this_cpu_off), "0"(ptr)); \
		(__typeof__(*(ptr)) *)tcp_ptr__;                               \
	})
#define this_cpu_ptr(ptr)                                                      \
	({                                                                     \
		__verify_pcpu_ptr(ptr);                                        \
		arch_raw_cpu_ptr(ptr);                                         \
	})

typedef struct { int locked; } spinlock_t;
typedef struct { int owner; } local_lock_t;
struct kmem_cache_cpu { void **freelist; local_lock_t lock; };
struct kmem_cache { struct kmem_cache_cpu *cpu_slab; };
struct kmem_cache_node { spinlock_t list_lock; unsigned long nr_partial; };
struct slab { struct kmem_cache_node *node; };

static inline struct kmem_cache_node *slab_node(const struct slab *slab)
{
	return READ_ONCE(slab->node);
}

void add_partial(struct kmem_cache_node *n)
{
	lockdep_assert_held(&n->list_lock);
	n->nr_partial++;
}

void remove_partial(struct slab *slab)
{
	lockdep_assert_held(&slab_node(slab)->list_lock);
	slab_node(slab)->nr_partial--;
}

void *get_freelist(struct kmem_cache *s)
{
	lockdep_assert_held(this_cpu_ptr(&s->cpu_slab->lock));
	return this_cpu_ptr(s->cpu_slab)->freelist;
}

void *get_remote_freelist(struct kmem_cache *s, int cpu)
{
	lockdep_assert_held(per_cpu_ptr(&s->cpu_slab->lock, cpu));
	return per_cpu_ptr(s->cpu_slab, cpu)->freelist;
}
