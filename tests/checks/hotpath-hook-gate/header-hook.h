#ifndef HEADER_HOOK_H
#define HEADER_HOOK_H
#include <stdbool.h>

struct req { unsigned long len; int flags; };

bool should_fail_req(const struct req *r);
// CHECK-MESSAGES: :[[@LINE-1]]:6: warning: hook 'should_fail_req' has no inline gate; declare one next to it, off by default, with setters to switch the hook on at run time [hotpath-hook-gate]
// CHECK-MESSAGES: header-hook.c:18:6: note: the gate is for this hot call and the others in this file
int submit_req(struct req *r);

#endif
