/* No check in this build (include/buf.h). */
#include "buf.h"
