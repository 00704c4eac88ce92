#include "ring.h"
#include "trace.h"

unsigned long ring_get(const struct ring *r, unsigned long idx)
{
	if (!ring_check(r, idx))
		return 0;
	return r->slots[idx];
}

void ring_put(struct ring *r, unsigned long idx, unsigned long v)
{
	if (trace_op(1, v))
		return;
	if (!ring_check(r, idx))
		return;
	r->slots[idx] = v;
}
