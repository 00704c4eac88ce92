#ifndef HEADER_CONDITION_H
#define HEADER_CONDITION_H
#include <stdbool.h>

#ifdef BIG_PAGES
#define PAGE_LIMIT 65536ul
#else
#define PAGE_LIMIT 4096ul
#define PAGE_SHIFT 12
#endif

bool page_ok(unsigned long off);
bool shift_ok(unsigned long off);

#endif
