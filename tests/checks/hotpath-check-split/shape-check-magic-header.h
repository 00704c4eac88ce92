#ifndef SHAPE_CHECK_MAGIC_HEADER_H
#define SHAPE_CHECK_MAGIC_HEADER_H

#include <stddef.h>

#define ARCHIVE_OK 0
#define ARCHIVE_FATAL (-30)
#define ARCHIVE_READ_MAGIC 0xdeb0c5U
#define ARCHIVE_WRITE_MAGIC 0xb0c5c0deU
#define ARCHIVE_STATE_NEW 1U
#define ARCHIVE_STATE_HEADER 2U
#define ARCHIVE_STATE_DATA 4U
#define ARCHIVE_STATE_FATAL 0x8000U

struct archive { unsigned magic, state; int err; char msg[96]; };

/* Check magic value and state; return(ARCHIVE_FATAL) if it isn't valid. */
int	__archive_check_magic(struct archive *, unsigned int magic,
	    unsigned int state, const char *func);

#endif
