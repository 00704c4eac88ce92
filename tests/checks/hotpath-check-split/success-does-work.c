// hotpath-args: -std=gnu11
// hotpath-options: Explain=ask
// e2fsck's ask(): three branches that print and return, then a success path
// that asks the user. Its value comes from work (a call not known to be
// pure), so it is no check function: no finding, where a check would get
// one (MultiBranchThreshold 3 is met by the calls below).
#include <stdio.h>

struct ctx { int options; };
int ask_yn(struct ctx *c, const char *q, int def);

int ask(struct ctx *c, const char *q, int def)
{
// CHECK-MESSAGES: :[[@LINE-2]]:5: remark: explain 'ask': a definition of function 'ask'; the steps of hotpath-check-split follow [hotpath-check-split]
	if (c->options & 1) {
		printf("%s? no\n", q);
		return 0;
	}
	if (c->options & 2) {
		printf("%s? yes\n", q);
		return 1;
	}
	if (c->options & 4) {
		printf("%s? %s\n", q, def ? "yes" : "no");
		return def;
	}
	return ask_yn(c, q, def);
	// CHECK-MESSAGES: :[[@LINE-1]]:9: note: not a check function: the success value does work besides returning: it calls 'ask_yn', which is not known to be pure
}

int fix_all(struct ctx *c, int n)
{
	int fixed = 0;
	for (int i = 0; i < n; i++)
		fixed += ask(c, "Fix", 1) + ask(c, "Clear", 0) + ask(c, "Salvage", 1);
	return fixed;
}
