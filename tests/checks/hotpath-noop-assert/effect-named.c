// hotpath-args: -std=c11
// A side effect always names what it writes (issue 26): a target written in
// a macro's body has no text of the use's own, so it is named by its
// declaration and kind instead of being left out ("it assigns to").
#define ASSERT(x) (void)(x)
// CHECK-MESSAGES: :[[@LINE-1]]:9: warning: disabled assert 'ASSERT' still evaluates its argument; make it type-check the argument without evaluating it [hotpath-noop-assert]
// CHECK-MESSAGES: :[[@LINE+10]]:2: note: 2 of its 2 uses in this translation unit do work the compiler must keep; the first, here: it assigns to 'last_seen'
// CHECK-MESSAGES: :[[@LINE-3]]:9: note: no fix: 2 uses of 'ASSERT' in this translation unit need the argument evaluated
#define REMEMBER(v) (last_seen = (v))
#define BUMP(s) ((s)->a_member_with_a_rather_long_name_indeed_yes += 1)

int last_seen;
struct stats { int a_member_with_a_rather_long_name_indeed_yes; };

int use(struct stats *st, int n)
{
	ASSERT(REMEMBER(n) > 0);
	// CHECK-MESSAGES: :[[@LINE-1]]:2: warning: argument of 'ASSERT' has a side effect (it assigns to 'last_seen'); a disabled 'ASSERT' that does not evaluate its argument would lose it, so the definition of 'ASSERT' is not rewritten [hotpath-noop-assert]
	ASSERT(BUMP(st) > 0);
	// CHECK-MESSAGES: :[[@LINE-1]]:2: warning: argument of 'ASSERT' has a side effect (it assigns to member 'a_member_with_a_rather_long_name_indeed_yes' of 'st'); a disabled 'ASSERT' that does not evaluate its argument would lose it, so the definition of 'ASSERT' is not rewritten [hotpath-noop-assert]
	return n;
}
