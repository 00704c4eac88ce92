/* What kbuild's -include of compiler_types.h, and compiler.h, give a C file
   of Linux 6.1: noinline, __cold and unlikely are defined only inside
   #ifndef __ASSEMBLY__ and #ifdef __KERNEL__ (the same headers serve
   assembly and user space), and unlikely() another way with
   CONFIG_TRACE_BRANCH_PROFILING, under "#ifndef unlikely" there. */
#ifndef KERNEL_KBUILD_UNUSED_H
#define KERNEL_KBUILD_UNUSED_H
#ifndef __ASSEMBLY__
#ifdef __KERNEL__
#define noinline __attribute__((__noinline__))
#define __cold __attribute__((__cold__))

#if defined(CONFIG_TRACE_BRANCH_PROFILING) && !defined(DISABLE_BRANCH_PROFILING)
# ifndef unlikely
#  define unlikely(x) (__builtin_expect(!!(x), 0) && 1)
# endif
#else
# define unlikely(x) __builtin_expect(!!(x), 0)
#endif
#endif /* __KERNEL__ */
#endif /* __ASSEMBLY__ */
#endif
