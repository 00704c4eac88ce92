/* No check: check_setget_bounds is an inline "return true" in the header. */
#include "extent_buffer.h"

typedef int nocheck_translation_unit_not_empty;
