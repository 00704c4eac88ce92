#ifndef GATE_NO_CALL_H
#define GATE_NO_CALL_H
#include <stdbool.h>

struct req { unsigned long len; int flags; };

bool should_fail_req(struct req *r);
int submit_all(struct req *rs, int n);
#endif
