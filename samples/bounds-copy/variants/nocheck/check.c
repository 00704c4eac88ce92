/* No check: buf_check_range is an inline "return true" in buf.h. */
#include "buf.h"

typedef int nocheck_translation_unit_not_empty;
