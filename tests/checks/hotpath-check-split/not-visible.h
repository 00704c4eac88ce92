#ifndef NOT_VISIBLE_H
#define NOT_VISIBLE_H
#include <stdbool.h>
struct blob;
bool check_blob(const struct blob *b, unsigned long off);
#endif
