#ifndef HEADER_HOOK_H
#define HEADER_HOOK_H
#include <stdbool.h>

struct req { unsigned long len; int flags; };

bool should_fail_req(const struct req *r);
int submit_req(struct req *r);

#endif
