// A file indented with four spaces, and one function indented with tabs
// (added by another hand): the fast path's nested level is a tab, as the
// function's own lines are, not the file's four spaces.
#include <stdio.h>
#include <stdbool.h>

struct span {
    unsigned long len;
    unsigned long cap;
};

static unsigned long span_room(const struct span *s)
{
    if (s->cap > s->len)
        return s->cap - s->len;
    return 0;
}

static bool span_ok(const struct span *s, unsigned long off)
{
// CHECK-MESSAGES: :[[@LINE-2]]:13: warning: check function 'span_ok' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:13: note: 'span_ok' is hot: 1 call site, 1 in loops
	if (off > s->len) {
		fprintf(stderr, "offset %lu past %lu\n", off, s->len);
		return false;
	}
	if (off + 8 > s->len) {
		fprintf(stderr, "offset %lu too close to %lu\n", off, s->len);
		return false;
	}
	return true;
}

unsigned long run(const struct span *s, unsigned long n)
{
    unsigned long ok = span_room(s);
    for (unsigned long i = 0; i < n; i++) {
        for (unsigned long j = 0; j < n; j++) {
            ok += span_ok(s, i + j);
        }
    }
    return ok;
}
