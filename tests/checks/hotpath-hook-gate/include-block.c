// hotpath-options: GateStyle=atomic; NewGateWithSetters=true
// An atomic gate needs <stdatomic.h>: it goes into the include block, after
// the last system header, once for the two hooks; the gates are indented
// as the file is (four spaces).
#include <stdio.h>
#include <string.h>

#include "include-block.h"

__attribute__((noinline)) static void trace_get(const char *key)
{
    (void)key;
}

__attribute__((noinline)) static void trace_put(const char *key)
{
    (void)key;
}

int cache_get(struct cache *c, const char *key)
{
    for (int i = 0; i < c->n; i++) {
        trace_get(key);
        // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: hot call to hook 'trace_get', which does nothing unless switched on; test an inline gate first so the disabled case makes no call [hotpath-hook-gate]
        // CHECK-MESSAGES: :[[@LINE-15]]:39: note: 'trace_get' is a hook: its body is empty in this configuration, and it is kept out of line (noinline)
        // CHECK-MESSAGES: :[[@LINE-16]]:39: note: the new gate starts off: nothing in the program calls trace_get_gate_enable() yet; whatever switches the hook on must, or the hook stays quiet
        if (strcmp(c->keys[i], key) == 0)
            return i;
    }
    return -1;
}

void cache_put(struct cache *c, const char *key)
{
    for (int i = 0; i < c->n; i++)
        trace_put(key);
        // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: hot call to hook 'trace_put', which does nothing unless switched on; test an inline gate first so the disabled case makes no call [hotpath-hook-gate]
        // CHECK-MESSAGES: :[[@LINE-23]]:39: note: 'trace_put' is a hook: its body is empty in this configuration, and it is kept out of line (noinline)
        // CHECK-MESSAGES: :[[@LINE-24]]:39: note: the new gate starts off: nothing in the program calls trace_put_gate_enable() yet; whatever switches the hook on must, or the hook stays quiet
    if (c->n < 8)
        c->keys[c->n++] = key;
    printf("%d\n", c->n);
}
