#ifndef HEADER_INCLUDE_TWICE_H
#define HEADER_INCLUDE_TWICE_H
#include <stdbool.h>
#include "header-include-twice.types.h"

bool span_ok(span_len_t off, span_len_t len);
bool late_ok(unsigned long off, unsigned long len);

#include "header-include-twice.late.h"
#endif
