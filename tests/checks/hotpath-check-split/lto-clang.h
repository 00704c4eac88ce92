#ifndef LTO_CLANG_H
#define LTO_CLANG_H
#include <stdbool.h>

struct buf { unsigned char *data; unsigned long size; };

bool buf_check_range(const struct buf *b, unsigned long off, unsigned long len);

#endif
