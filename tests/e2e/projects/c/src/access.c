/* Out-of-line readers: their own translation unit, no LTO. */
#include "access.h"

DEFINE_GET(8)
DEFINE_GET(16)
DEFINE_GET(32)
DEFINE_GET(64)
