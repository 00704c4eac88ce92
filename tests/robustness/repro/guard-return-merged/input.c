/* Reduced from btrfs-progs 6.2 btrfs.c check_output_format(). */
#include <stdio.h>
#include <stdlib.h>

struct cmd { const struct cmd *next; unsigned flags; };
static unsigned output_format = 1;

static void check_output_format(const struct cmd *cmd)
{
	if (cmd->next)
		return;

	if (!(cmd->flags & output_format)) {
		fprintf(stderr, "output format %u is unsupported for this command\n", output_format);
		exit(1);
	}
}

void run(const struct cmd *c)
{
	for (; c; c = c->next)
		check_output_format(c);
}
