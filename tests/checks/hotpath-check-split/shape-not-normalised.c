// hotpath-options: MultiBranchThreshold=1; SingleBranchThreshold=1; Explain=check_falls_through
// Shapes the normalisation must leave alone, or it would change what runs:
// an else after nested branches that may fall through (a && !b runs the code
// after the if, not the else), a declaration in an else (its scope ends
// there), a local assigned twice. Explain mode says which
// rule the first breaks, where; the others are silent like it.
#include <stdio.h>

static int check_falls_through(unsigned long off, unsigned long len)
{
// CHECK-MESSAGES: :[[@LINE-2]]:12: remark: explain 'check_falls_through': a definition of function 'check_falls_through'; the steps of hotpath-check-split follow [hotpath-check-split]
	if (off >= len) {
		if (off > 2 * len) {
			fprintf(stderr, "offset %lu far past %lu\n", off, len);
			return -1;
		}
	} else {
	// CHECK-MESSAGES: :[[@LINE-1]]:9: note: not a check function: branch 1 has an 'else' that follows a path that does not leave, or that declares something
		return 0;
	}
	return 1;
}

static int check_declares_in_else(unsigned long off, unsigned long len)
{
	if (off > len) {
		fprintf(stderr, "offset %lu past %lu\n", off, len);
		return -1;
	} else {
		unsigned long end = off + 1;
		if (end > len) {
			fprintf(stderr, "end %lu past %lu\n", end, len);
			return -1;
		}
	}
	return 0;
}

static int check_assigned_twice(unsigned long off, unsigned long len)
{
	unsigned long end;

	end = off + 1;
	end = end * 2;
	if (end > len) {
		fprintf(stderr, "end %lu past %lu\n", end, len);
		return -1;
	}
	return 0;
}

int run(const unsigned long *offs, int n)
{
	int r = 0;
	for (int i = 0; i < n; i++)
		r += check_falls_through(offs[i], 8) + check_declares_in_else(offs[i], 8) +
		     check_assigned_twice(offs[i], 8);
	return r;
}
