// hotpath-options: RuleSet=shape-check-magic-header.rules.yaml; MultiBranchThreshold=1; SingleBranchThreshold=1
// libarchive's __archive_check_magic as it is: declared in a header and
// called from other translation units, so its fast path goes into the
// header; the preamble calls a static pure function of this file, which
// only uses what the header sees, so it moves into the header before the
// fast path, static inline (tests/e2e/check-shapes-behaviour.sh builds a
// second translation unit that includes the fixed header).
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "shape-check-magic-header.h"

__attribute__((format(printf, 3, 4)))
static void archive_set_error(struct archive *a, int err, const char *fmt, ...)
{
	va_list ap;
	a->err = err;
	va_start(ap, fmt);
	vsnprintf(a->msg, sizeof(a->msg), fmt, ap);
	va_end(ap);
}

static void errmsg(const char *m)
{
	fputs(m, stderr);
}

__attribute__((noreturn)) static void diediedie(void)
{
	exit(70);
}

static const char *
archive_handle_type_name(unsigned m)
{
	switch (m) {
	case ARCHIVE_WRITE_MAGIC:	return ("archive_write");
	case ARCHIVE_READ_MAGIC:	return ("archive_read");
	default:			return NULL;
	}
}

static char *write_all_states(char *buff, unsigned int states)
{
	sprintf(buff, "%#x", states);
	return buff;
}

int
__archive_check_magic(struct archive *a, unsigned int magic,
    unsigned int state, const char *function)
{
// CHECK-MESSAGES: :[[@LINE-3]]:1: warning: check function '__archive_check_magic' tests 3 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-4]]:1: note: '__archive_check_magic' is hot: 1 call site, 1 in loops
	char states1[64];
	char states2[64];
	const char *handle_type;

	handle_type = archive_handle_type_name(a->magic);

	if (!handle_type) {
		errmsg("PROGRAMMER ERROR: Function ");
		errmsg(function);
		errmsg(" invoked with invalid archive handle.\n");
		diediedie();
	}

	if (a->magic != magic) {
		archive_set_error(a, -1,
		    "PROGRAMMER ERROR: Function '%s' invoked"
		    " on '%s' archive object, which is not supported.",
		    function,
		    handle_type);
		a->state = ARCHIVE_STATE_FATAL;
		return (ARCHIVE_FATAL);
	}

	if ((a->state & state) == 0) {
		/* If we're already FATAL, don't overwrite the error. */
		if (a->state != ARCHIVE_STATE_FATAL)
			archive_set_error(a, -1,
			    "INTERNAL ERROR: Function '%s' invoked with"
			    " archive structure in state '%s',"
			    " should be in state '%s'",
			    function,
			    write_all_states(states1, a->state),
			    write_all_states(states2, state));
		a->state = ARCHIVE_STATE_FATAL;
		return (ARCHIVE_FATAL);
	}
	return ARCHIVE_OK;
}

static struct archive handles[8];
static int results[8];

int main(int argc, char **argv)
{
	int n = 0, bad = 0;
	for (int i = 1; i + 1 < argc && n < 8; i += 2, n++) {
		handles[n].magic = (unsigned)strtoul(argv[i], NULL, 0);
		handles[n].state = (unsigned)strtoul(argv[i + 1], NULL, 0);
	}
	for (int i = 0; i < n; i++) {
		results[i] = __archive_check_magic(&handles[i], ARCHIVE_READ_MAGIC,
						   ARCHIVE_STATE_HEADER | ARCHIVE_STATE_DATA,
						   "archive_read_next");
		bad += results[i] != ARCHIVE_OK;
	}
	for (int i = 0; i < n; i++)
		printf("%d %#x %d '%s'\n", results[i], handles[i].state, handles[i].err, handles[i].msg);
	return bad;
}
