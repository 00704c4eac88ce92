#ifndef CONFIG_EMPTY_MACRO_H
#define CONFIG_EMPTY_MACRO_H

#ifndef UNTESTABLE
void begin_benign(void);
// CHECK-MESSAGES: :[[@LINE-1]]:6: warning: hook 'begin_benign' has no inline gate; declare one next to it, off by default, with setters to switch the hook on at run time [hotpath-hook-gate]
// CHECK-MESSAGES: config-empty-macro.c:19:2: note: the gate is for this hot call and the others in this file
#else
#define begin_benign()
#endif

void *grow_buffer(void *p, unsigned long n);
void *resize(void *p, unsigned long n, int grow);

#endif
