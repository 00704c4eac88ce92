// hotpath-options: RuleSet=shape-check-magic.rules.yaml; MultiBranchThreshold=1; SingleBranchThreshold=1
// libarchive's __archive_check_magic, reduced and static: a preamble that
// calls a pure function (named so by the rule set), locals used only when
// failing (char states1[64]), failure branches that set the handle's state
// and nest an if; the first leaves by a noreturn call. Every failure that
// returns returns ARCHIVE_FATAL, so the fast path returns it itself.
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARCHIVE_OK 0
#define ARCHIVE_FATAL (-30)
#define ARCHIVE_READ_MAGIC 0xdeb0c5U
#define ARCHIVE_WRITE_MAGIC 0xb0c5c0deU
#define ARCHIVE_STATE_NEW 1U
#define ARCHIVE_STATE_HEADER 2U
#define ARCHIVE_STATE_DATA 4U
#define ARCHIVE_STATE_FATAL 0x8000U

struct archive { unsigned magic, state; int err; char msg[96]; };

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

static const char *archive_handle_type_name(unsigned m)
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

static int
check_magic(struct archive *a, unsigned int magic,
    unsigned int state, const char *function)
{
// CHECK-MESSAGES: :[[@LINE-3]]:1: warning: check function 'check_magic' tests 3 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-4]]:1: note: 'check_magic' is hot: 1 call site, 1 in loops
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
		results[i] = check_magic(&handles[i], ARCHIVE_READ_MAGIC,
					 ARCHIVE_STATE_HEADER | ARCHIVE_STATE_DATA, "archive_read_next");
		bad += results[i] != ARCHIVE_OK;
	}
	for (int i = 0; i < n; i++)
		printf("%d %#x %d '%s'\n", results[i], handles[i].state, handles[i].err, handles[i].msg);
	return bad;
}
