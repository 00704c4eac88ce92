#ifndef HEADER_INCLUDE_TWICE_TYPES_H
#define HEADER_INCLUDE_TWICE_TYPES_H
typedef unsigned long span_len_t;
#endif
