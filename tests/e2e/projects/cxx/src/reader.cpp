// Readers: their own translation unit, no LTO.
#include "buffer.h"

#include <cstring>

std::uint16_t Buffer::get16(unsigned Off) const {
  std::uint16_t V;
  if (!checkRange(Off, sizeof(V)))
    return 0;
  std::memcpy(&V, Data.data() + Off, sizeof(V));
  return V;
}

std::uint32_t Buffer::get32(unsigned Off) const {
  std::uint32_t V;
  if (!checkRange(Off, sizeof(V)))
    return 0;
  std::memcpy(&V, Data.data() + Off, sizeof(V));
  return V;
}
