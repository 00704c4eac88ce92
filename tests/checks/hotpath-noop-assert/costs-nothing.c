// hotpath-args: -std=c11
// libdeflate's ASSERT: a disabled form that evaluates its argument, but every
// use compares locals and fields, and calls inline helpers that only compute,
// which the compiler drops by itself. Nothing to gain: no finding. UNUSED(x)
// is no assert at all.
#include <stddef.h>

#ifdef LIBDEFLATE_ENABLE_ASSERTIONS
void libdeflate_assertion_failed(const char *expr, const char *file, int line);
#define ASSERT(expr) { if (!(expr)) \
	libdeflate_assertion_failed(#expr, __FILE__, __LINE__); }
#else
#define ASSERT(expr) (void)(expr)
#endif
#define UNUSED(x) (void)(x)

struct output_bitstream { unsigned bitcount; unsigned char *next, *end; };

static inline int in_bounds(const struct output_bitstream *os)
{
	return os->next <= os->end;
}

void flush_bits(struct output_bitstream *os, unsigned bitcount, int is_final_block)
{
	UNUSED(is_final_block);
	ASSERT(bitcount <= 32);
	ASSERT(os->bitcount <= 7);
	ASSERT(8 * (size_t)(os->end - os->next) + bitcount >= os->bitcount);
	ASSERT(in_bounds(os));
	os->bitcount = bitcount & 7;
}

// erofs-utils: a function-like macro passed to the assert only computes
// (erofs_blkoff(x) is `(x) % EROFS_BLKSIZ`); its name is no call.
#define EROFS_BLKSIZ 4096
#define erofs_blkoff(addr) ((addr) % EROFS_BLKSIZ)
#define DBG_BUGON(x) ((void)(x))

unsigned block_offset(unsigned long blkpos)
{
	DBG_BUGON(erofs_blkoff(blkpos) != 0);
	return (unsigned)(blkpos >> 12);
}
