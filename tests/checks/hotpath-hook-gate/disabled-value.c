// hotpath-options: NewGateWithSetters=true
// Hooks whose disabled value is not 0, used as numbers in a hot loop: the
// gated call yields that value while the gate is off (issue 24: a 0 written
// in its place went unnoticed), so the program computes what it did
// (tests/e2e/hook-values-behaviour.sh runs it before and after the fix).
#include <stdio.h>
#include <stdlib.h>

/* The weight of an item: 5 unless a test build takes the hook over. */
__attribute__((noinline)) int item_weight(int item)
{
	(void)item;
	return 5;
}

/* The bias of a step: -3 unless taken over. */
__attribute__((noinline)) long step_bias(void)
{
	return -3;
}

static long total(const int *items, int n)
{
	long sum = 0;

	for (int i = 0; i < n; i++) {
		sum += items[i] + item_weight(items[i]);
		// CHECK-MESSAGES: :[[@LINE-1]]:21: warning: hot call to hook 'item_weight', which does nothing unless switched on; test an inline gate first so the disabled case makes no call [hotpath-hook-gate]
		// CHECK-MESSAGES: :[[@LINE-19]]:31: note: 'item_weight' is a hook: its body only returns 5 in this configuration, and it is kept out of line (noinline)
		// CHECK-MESSAGES: :[[@LINE-20]]:31: note: the new gate starts off: nothing in the program calls item_weight_gate_enable() yet; whatever switches the hook on must, or the hook stays quiet
		sum = sum * 2 -step_bias();
		// CHECK-MESSAGES: :[[@LINE-1]]:18: warning: hot call to hook 'step_bias', which does nothing unless switched on; test an inline gate first so the disabled case makes no call [hotpath-hook-gate]
		// CHECK-MESSAGES: :[[@LINE-16]]:32: note: 'step_bias' is a hook: its body only returns -3 in this configuration, and it is kept out of line (noinline)
		// CHECK-MESSAGES: :[[@LINE-17]]:32: note: the new gate starts off: nothing in the program calls step_bias_gate_enable() yet; whatever switches the hook on must, or the hook stays quiet
	}
	return sum;
}

int main(int argc, char **argv)
{
	int items[64];
	int n = argc - 1 < 64 ? argc - 1 : 64;

	for (int i = 0; i < n; i++)
		items[i] = atoi(argv[i + 1]);
	printf("total %ld\n", total(items, n));
	return 0;
}
