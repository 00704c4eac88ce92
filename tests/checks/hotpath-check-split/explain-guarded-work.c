// hotpath-args: -std=c11
// hotpath-options: Explain=put_buffer
// A void function's `if (!b) return;` followed by work that reports on the
// way is the function's work, not a check's failure path (btrfs-progs'
// free_extent_buffer_internal(): drop a reference, BUG_ON, free). A failure
// path says what is wrong first, then repairs (xfs_repair's check_nsec(),
// shape-xfs-nsec.c). Not a check function.
#include <stdio.h>
#include <stdlib.h>

struct buffer { int refs; int dirty; };

void put_buffer(struct buffer *b)
{
// CHECK-MESSAGES: :[[@LINE-2]]:6: remark: explain 'put_buffer': a definition of function 'put_buffer'; the steps of hotpath-check-split follow [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:6: note: not a check function: no branch reports anything
	if (!b)
		return;
	b->refs--;
	if (b->refs < 0)
		abort();
	if (b->refs == 0) {
		if (b->dirty)
			fprintf(stderr, "dirty buffer leaked\n");
		free(b);
	}
}

void put_all(struct buffer **v, int n, int m)
{
	for (int i = 0; i < n; i++)
		for (int j = 0; j < m; j++)
			put_buffer(v[i * m + j]);
}
