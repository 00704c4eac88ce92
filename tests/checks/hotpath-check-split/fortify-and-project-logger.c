// hotpath-args: -std=gnu11 -D_FORTIFY_SOURCE=2 -O2
// With _FORTIFY_SOURCE glibc turns fprintf into a macro for __fprintf_chk, and
// projects report through their own printf-like logger wrapped in a
// statement macro (btrfs-progs' error()): both still count as reporting.
#include <stdbool.h>
#include <stdio.h>

void __log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#define TRACE_ON_ERROR do { } while (0)
#define error(fmt, ...)                        \
	do {                                   \
		TRACE_ON_ERROR;                \
		__log_error((fmt), ##__VA_ARGS__); \
	} while (0)

struct buf { unsigned long len; };

static bool check_start(const struct buf *b, unsigned long off)
{
// CHECK-MESSAGES: :[[@LINE-2]]:13: warning: check function 'check_start' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:13: note: 'check_start' is hot: 1 call site, 1 in loops
	if (off > b->len) {
		fprintf(stderr, "start %lu\n", off);
		return false;
	}
	if (off + 8 > b->len) {
		error("end %lu", off + 8);
		return false;
	}
	return true;
}

int count(const struct buf *b, unsigned long n)
{
	int ok = 0;
	for (unsigned long i = 0; i < n; i++)
		ok += check_start(b, i);
	return ok;
}
