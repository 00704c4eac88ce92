/* No fault-injection hook in this build (include/buf.h). */
#include "buf.h"
