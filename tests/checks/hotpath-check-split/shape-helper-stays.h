#ifndef SHAPE_HELPER_STAYS_H
#define SHAPE_HELPER_STAYS_H

struct handle { unsigned magic, state; };

int check_handle(const struct handle *h, unsigned state);

#endif
