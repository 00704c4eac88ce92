/* Out-of-line accessors: own translation unit, no LTO. */
#include "extent_buffer.h"

DEFINE_SETGET_FUNCS(8)
DEFINE_SETGET_FUNCS(16)
DEFINE_SETGET_FUNCS(32)
DEFINE_SETGET_FUNCS(64)
