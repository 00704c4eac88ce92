// The hook is declared in a header and defined here with external linkage:
// the header gets the gate's declaration and accessor, this file its
// definition and setters, and the hot caller is cloned.
#include "header-hook.h"

__attribute__((noinline)) bool should_fail_req(const struct req *r)
{
	(void)r;
	return false;
}

int submit_req(struct req *r)
{
	if (should_fail_req(r))
		return -12;
	r->flags |= 1;
	return 0;
}

int submit_all(struct req *rs, int n)
{
	int i, done = 0;

	for (i = 0; i < n; i++)
		done += submit_req(&rs[i]) == 0;
	return done;
}
