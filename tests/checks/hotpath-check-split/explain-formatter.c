// hotpath-args: -std=c11
// hotpath-options: Explain=pr_verbose
// A variadic function that formats its arguments (va_start) is a printer,
// however it begins: `if (quiet) return;` is not a check whose failure path
// reports, the printing is the function's work (btrfs-progs' pr_verbose(),
// xfsprogs' dbprintf(), called in 53 and 150 loops). Not a candidate, with
// the reason in explain mode, even in two nested loops.
#include <stdarg.h>
#include <stdio.h>

static int verbose;

void pr_verbose(int level, const char *fmt, ...)
{
// CHECK-MESSAGES: :[[@LINE-2]]:6: remark: explain 'pr_verbose': a definition of function 'pr_verbose'; the steps of hotpath-check-split follow [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:6: note: not a candidate: it is variadic and reads its arguments with va_start: a function that formats a message, whose printing is its work, not a check's failure path
	va_list args;

	if (level > verbose)
		return;
	va_start(args, fmt);
	vfprintf(stderr, fmt, args);
	va_end(args);
}

void walk(int rows, int cols)
{
	for (int r = 0; r < rows; r++)
		for (int c = 0; c < cols; c++)
			pr_verbose(2, "cell %d %d\n", r, c);
}
