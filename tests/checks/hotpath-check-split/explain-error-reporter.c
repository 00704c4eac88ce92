// hotpath-args: -std=c11
// hotpath-options: Explain=print_block_error
// A function whose only test is of an error its caller passes in reports
// that error; it checks nothing of its own (btrfs-progs'
// print_tree_block_error(fs_info, eb, err): `if (!err) return;`, then the
// report). Not a check function, even in two nested loops.
#include <stdio.h>

struct block { unsigned long start; };

void print_block_error(const struct block *b, int err)
{
// CHECK-MESSAGES: :[[@LINE-2]]:6: remark: explain 'print_block_error': a definition of function 'print_block_error'; the steps of hotpath-check-split follow [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:6: note: not a check function: every condition it tests is an error its caller passes in; it reports that error
	if (!err)
		return;
	fprintf(stderr, "bad block %lu: %d\n", b->start, err);
}

int read_all(const struct block *v, const int *errs, int n, int m)
{
	int bad = 0;
	for (int i = 0; i < n; i++)
		for (int j = 0; j < m; j++) {
			print_block_error(&v[i], errs[j]);
			bad += errs[j] != 0;
		}
	return bad;
}
