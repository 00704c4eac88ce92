// hotpath-args: -std=gnu11
// Assert macros with more parameters than the condition: btrfs-progs'
// ASSERT(cond, args...) (GNU named variadic), a C99 `...` form and one with a
// message parameter. Only the condition is judged and rewritten; every
// parameter stays, so every use still compiles, with -Wall -Wextra -Werror.
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef CONFIG_ASSERT
#define ASSERT(cond, args...) do { if (!(cond)) { fprintf(stderr, "assert " args); abort(); } } while (0)
#define VERIFY_ARG(cond, ...) do { if (!(cond)) { fprintf(stderr, __VA_ARGS__); abort(); } } while (0)
#define DCHECK_MSG(cond, msg) do { if (!(cond)) { fputs(msg, stderr); abort(); } } while (0)
#else
#define ASSERT(cond, args...)			(void)(cond)
// CHECK-MESSAGES: :[[@LINE-1]]:9: warning: disabled assert 'ASSERT' still evaluates its argument; make it type-check the argument without evaluating it [hotpath-noop-assert]
// CHECK-MESSAGES: :[[@LINE+15]]:2: note: 2 of its 2 uses in this translation unit do work the compiler must keep; the first, here: it calls 'check_setget_bounds', whose body is not visible and which is not known to be pure
#define VERIFY_ARG(cond, ...) ((void)(cond))
// CHECK-MESSAGES: :[[@LINE-1]]:9: warning: disabled assert 'VERIFY_ARG' still evaluates its argument; make it type-check the argument without evaluating it [hotpath-noop-assert]
// CHECK-MESSAGES: :[[@LINE+23]]:2: note: its use here does work the compiler must keep: it calls 'table_ok', whose body is not visible and which is not known to be pure
#define DCHECK_MSG(cond, msg) do { (void)(cond); } while (0)
// CHECK-MESSAGES: :[[@LINE-1]]:9: warning: disabled assert 'DCHECK_MSG' still evaluates its argument; make it type-check the argument without evaluating it [hotpath-noop-assert]
#endif

struct extent_buffer { unsigned long len; unsigned char data[64]; };

bool check_setget_bounds(const struct extent_buffer *eb, unsigned long off, unsigned size);
int table_ok(const int *t, int n);

unsigned char get_u8(const struct extent_buffer *eb, unsigned long off)
{
	ASSERT(check_setget_bounds(eb, off, 1));
	ASSERT(check_setget_bounds(eb, off, 1), "off=%lu", off);
	return eb->data[off];
}

int lookup(const int *t, int n, int i)
{
	/* The disabled form drops the message arguments before and after the
	 * fix alike: a variable used only there would warn in both. */
	int limit = n - 1;

	VERIFY_ARG(table_ok(t, n), "bad table of %d\n", limit);
	VERIFY_ARG(i >= 0);
	DCHECK_MSG(table_ok(t, n), "bad table\n");
	// CHECK-MESSAGES: :[[@LINE-1]]:2: note: its use here does work the compiler must keep: it calls 'table_ok', whose body is not visible and which is not known to be pure
	return t[i < limit ? i : limit];
}
