#ifndef KERNEL_HEADER_CALLER_FAULT_H
#define KERNEL_HEADER_CALLER_FAULT_H
/* include/linux/fault-inject.h, with stand-ins for <linux/jump_label.h>. */
#include <stdbool.h>
#include <stddef.h>
struct static_key_false { int enabled; };
#define DECLARE_STATIC_KEY_FALSE(name) extern struct static_key_false name
#define DEFINE_STATIC_KEY_FALSE(name) struct static_key_false name = { 0 }
#define static_branch_unlikely(key) __builtin_expect((key)->enabled, 0)
#define static_branch_enable(key) ((key)->enabled = 1)
#define static_branch_disable(key) ((key)->enabled = 0)
#define noinline __attribute__((__noinline__))
#define ALLOW_ERROR_INJECTION(fname, type) extern int __ei_##fname
typedef unsigned int gfp_t;
struct kmem_cache { void *freelist; unsigned int size; };

int should_failslab(struct kmem_cache *s, gfp_t gfpflags);
// CHECK-MESSAGES: :[[@LINE-1]]:5: warning: hook 'should_failslab' has no inline gate; declare one next to it, off by default, with setters to switch the hook on at run time [hotpath-hook-gate]
// CHECK-MESSAGES: kernel-header-caller.h:9:6: note: the gate is for this hot call and the others in this file
#endif
