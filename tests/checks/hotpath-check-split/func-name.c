// The slow path is the original body renamed: what it prints as its own
// name must stay the old one. __func__ and __FUNCTION__ written in the body
// become the name's string; through a macro, or as __PRETTY_FUNCTION__
// (the signature, spelled differently by gcc and clang), there is no fix.
#include <stdbool.h>
#include <stdio.h>

struct ref { unsigned long id, max; };

static bool check_reference(const struct ref *r, unsigned long len)
{
// CHECK-MESSAGES: :[[@LINE-2]]:13: warning: check function 'check_reference' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:13: note: 'check_reference' is hot: 1 call site, 1 in loops
	if (r->id > r->max) {
		fprintf(stderr, "%s: id %lu past %lu\n", __func__, r->id, r->max);
		return false;
	}
	if (len > r->max - r->id) {
		fprintf(stderr, "%s: length %lu\n", __FUNCTION__, len);
		return false;
	}
	return true;
}

#define log_err(fmt, ...) fprintf(stderr, "%s: " fmt "\n", __func__, __VA_ARGS__)

static bool check_logged(const struct ref *r, unsigned long len)
{
// CHECK-MESSAGES: :[[@LINE-2]]:13: warning: check function 'check_logged' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:13: note: 'check_logged' is hot: 1 call site, 1 in loops
	if (r->id > r->max) {
		log_err("id %lu", r->id);
		// CHECK-MESSAGES: :[[@LINE-1]]:3: note: no fix: the slow path names itself with __func__ through macro 'log_err', and would print its new name; a macro is not rewritten for one use
		return false;
	}
	if (len > r->max) {
		log_err("length %lu", len);
		return false;
	}
	return true;
}

static bool check_pretty(const struct ref *r, unsigned long len)
{
// CHECK-MESSAGES: :[[@LINE-2]]:13: warning: check function 'check_pretty' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:13: note: 'check_pretty' is hot: 1 call site, 1 in loops
	if (r->id > r->max) {
		fprintf(stderr, "%s: id\n", __PRETTY_FUNCTION__);
		// CHECK-MESSAGES: :[[@LINE-1]]:31: note: no fix: the slow path uses __PRETTY_FUNCTION__, whose text is the signature: the rename would change it, and gcc and clang spell it differently, so no string keeps it
		return false;
	}
	if (len > r->max) {
		fprintf(stderr, "length\n");
		return false;
	}
	return true;
}

unsigned long run(const struct ref *r, unsigned long n)
{
	unsigned long ok = 0;
	for (unsigned long i = 0; i < n; i++)
		ok += check_reference(r, i) + check_logged(r, i) + check_pretty(r, i);
	return ok;
}
