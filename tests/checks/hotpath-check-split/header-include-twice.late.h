#ifndef HEADER_INCLUDE_TWICE_LATE_H
#define HEADER_INCLUDE_TWICE_LATE_H
typedef unsigned long late_len_t;
#endif
