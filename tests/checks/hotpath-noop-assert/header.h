#ifndef HEADER_H
#define HEADER_H
#ifdef CONFIG_ASSERT
#define ASSERT(expr) do { if (!(expr)) assert_failed(#expr, __FILE__, __LINE__); } while (0)
void assert_failed(const char *expr, const char *file, int line);
#else
#define ASSERT(expr) \
	do { \
		(void)(expr); \
	} while (0)
// CHECK-MESSAGES: :[[@LINE-4]]:9: warning: disabled assert 'ASSERT' still evaluates its argument; make it type-check the argument without evaluating it [hotpath-noop-assert]
// CHECK-MESSAGES: header.c:12:2: note: its use here does work the compiler must keep: it calls 'list_is_sorted', whose body is not visible and which is not known to be pure
// CHECK-MESSAGES: :[[@LINE-6]]:9: note: no fix: 'ASSERT' is defined in header.h, which other translation units may use with an argument that needs evaluating; with ProjectIndex (hotpath-tidy --index-only -p <build-dir>) every use is known
#endif
#endif
