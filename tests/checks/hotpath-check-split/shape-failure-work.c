// hotpath-options: MultiBranchThreshold=1; SingleBranchThreshold=1
// Failure branches run in the slow path only, which is the original body, so
// they may do anything that leaves: write state through pointers and
// globals, repair, call functions that are not pure, nest ifs; locals of any
// type (an array, a struct) used only there stay in the slow path. The fast
// path returns what the slow path returns when the failures return different
// or computed values, and the constant itself when they all return it.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ST_NEW = 1, ST_OPEN = 2, ST_FATAL = 0x8000 };
struct obj { unsigned magic, state; int err; char msg[32]; };
static unsigned long repairs;

static void set_error(struct obj *o, int err, const char *what)
{
	o->err = err;
	snprintf(o->msg, sizeof(o->msg), "%s", what);
}

static int check_obj(struct obj *o, unsigned magic, unsigned states)
{
// CHECK-MESSAGES: :[[@LINE-2]]:12: warning: check function 'check_obj' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:12: note: 'check_obj' is hot: 1 call site, 1 in loops
	char names[32];
	struct { unsigned have, want; } st;

	if (o->magic != magic) {
		set_error(o, -1, "bad magic");
		o->state = ST_FATAL;
		fprintf(stderr, "magic %#x, want %#x\n", o->magic, magic);
		return -30;
	}
	if ((o->state & states) == 0) {
		if (o->state != ST_FATAL) {
			st.have = o->state;
			st.want = states;
			snprintf(names, sizeof(names), "%u/%u", st.have, st.want);
			fprintf(stderr, "state %s\n", names);
		}
		o->state = ST_FATAL;
		return o->err ? o->err : -25;
	}
	return 0;
}

static int check_len(unsigned *len, unsigned max, int *dirty)
{
// CHECK-MESSAGES: :[[@LINE-2]]:12: warning: check function 'check_len' keeps its reporting code inline on a hot path; move it to a cold function so the check can be inlined [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:12: note: 'check_len' is hot: 1 call site, 1 in loops
	if (*len > max) {
		fprintf(stderr, "length %u > %u, ", *len, max);
		if (*len > 2 * max) {
			fprintf(stderr, "cannot repair\n");
			return -1;
		}
		fprintf(stderr, "truncated\n");
		*len = max;
		*dirty = 1;
		repairs++;
		return -1;
	}
	return 0;
}

struct result { int r, err, l; unsigned state, len; char msg[32]; };
static struct result results[16];

static int run(char **args, int n)
{
	int bad = 0, dirty = 0;
	for (int i = 0; i + 1 < n && i < 32; i += 2) {
		unsigned long v = strtoul(args[i], NULL, 0);
		unsigned len = (unsigned)strtoul(args[i + 1], NULL, 0);
		struct obj o = { (unsigned)(v & 0xff), (unsigned)(v >> 8 & 0xffff),
				 (v >> 24) ? -7 : 0, "" };
		struct result *res = &results[i / 2];
		res->r = check_obj(&o, 0x5a, ST_NEW | ST_OPEN);
		res->l = check_len(&len, 100, &dirty);
		res->state = o.state;
		res->err = o.err;
		res->len = len;
		memcpy(res->msg, o.msg, sizeof(res->msg));
		bad += (res->r != 0) + (res->l != 0);
	}
	for (int i = 0; i + 1 < n && i < 32; i += 2)
		printf("%d %#x %d '%s' | %d %u\n", results[i / 2].r, results[i / 2].state,
		       results[i / 2].err, results[i / 2].msg, results[i / 2].l, results[i / 2].len);
	printf("%d bad, %d dirty, %lu repairs\n", bad, dirty, repairs);
	return bad;
}

int main(int argc, char **argv)
{
	return run(argv + 1, argc - 1) & 0x7f;
}
