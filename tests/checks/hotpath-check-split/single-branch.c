// One reporting branch: the finding is the inline reporting code. A called-
// once validator with one branch is too cold to report.
#include <stdio.h>

struct ring { unsigned int head, mask; int slots[64]; };

static int check_slot(const struct ring *r, unsigned int slot)
{
// CHECK-MESSAGES: :[[@LINE-2]]:12: warning: check function 'check_slot' keeps its reporting code inline on a hot path; move it to a cold function so the check can be inlined [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:12: note: 'check_slot' is hot: 3 call sites, 3 in loops
	if (slot > r->mask) {
		fprintf(stderr, "ring: slot %u beyond mask %u (head %u)\n", slot, r->mask, r->head);
		return -1;
	}
	return 0;
}

static int check_config(int depth)
{
	if (depth > 64) {
		fprintf(stderr, "depth %d too large\n", depth);
		return -1;
	}
	return 0;
}

int drain(const struct ring *r, unsigned int n)
{
	int total = 0;
	if (check_config((int)n))
		return -1;
	for (unsigned int i = 0; i < n; i++) {
		if (check_slot(r, r->head + i))
			return -1;
		total += r->slots[(r->head + i) & r->mask];
	}
	for (unsigned int i = 0; i < n; i++)
		if (check_slot(r, i) == 0)
			total -= r->slots[i];
	while (n-- > 0)
		if (check_slot(r, n) != 0)
			break;
	return total;
}
