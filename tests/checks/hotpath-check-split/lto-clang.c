// hotpath-args: -std=c11 -O2 -flto
// Built with clang -flto (flags after `--` are clang's): a check function
// that other files call gets no fix, since clang's LTO inlines the original
// into them already and a caller that throws the result away and tests the
// bound again was slower after the fix (samples/bounds-copy). A static one,
// which LTO inlines no differently than -O2 does, still gets its fix.
#include <stdio.h>
#include "lto-clang.h"

#define VERIFY(x) ((void)(x))

bool buf_check_range(const struct buf *b, unsigned long off, unsigned long len)
{
// CHECK-MESSAGES: :[[@LINE-2]]:6: warning: check function 'buf_check_range' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-3]]:6: note: 'buf_check_range' is hot: called by buf_read (lto-clang.c:31), which is called in a loop in buf_sum (lto-clang.c:46)
	if (off > b->size) {
		fprintf(stderr, "offset %lu past the end\n", off);
		return false;
	}
	if (len > b->size - off) {
		fprintf(stderr, "%lu bytes at %lu past the end\n", len, off);
		return false;
	}
	return true;
}

unsigned long buf_read(const struct buf *b, unsigned long off, unsigned long len, unsigned char *dst)
{
	unsigned long i;

	VERIFY(buf_check_range(b, off, len));
// CHECK-MESSAGES: :[[@LINE-1]]:9: note: no fix: built with clang -flto (this compile command), a caller that throws away what 'buf_check_range' returns and tests the same bound again was slower after the fix with every fast-path shape measured: 1.076 of the original's instructions with -flto, 1.085 with PGO+LTO (samples/bounds-copy), since clang's LTO inlines the original check there already
	if (off > b->size || len > b->size - off)
		return 0;
	for (i = 0; i < len; i++)
		dst[i] = b->data[off + i];
	return len;
}

unsigned long buf_sum(const struct buf *b, unsigned long n)
{
	unsigned long s = 0, i;

	for (i = 0; i < n; i++) {
		unsigned char c;
		s += buf_read(b, i, 1, &c) ? c : 0;
	}
	return s;
}
