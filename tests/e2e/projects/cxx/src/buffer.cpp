#include "buffer.h"

#include <cstdio>

Buffer::Buffer(std::size_t Len) : Len(Len), Data(Len) {}

void Buffer::fill(unsigned long long Seed) {
  for (unsigned char &C : Data) {
    Seed = Seed * 6364136223846793005ull + 1442695040888963407ull;
    C = static_cast<unsigned char>(Seed >> 56);
  }
}

bool Buffer::checkRange(unsigned Off, unsigned Size) const {
  const unsigned long End = static_cast<unsigned long>(Off) + Size;

  if (Off > Len) {
    std::fprintf(stderr, "bad start: offset %u size %u len %zu\n", Off, Size, Len);
    return false;
  }
  if (End > Len) {
    std::fprintf(stderr, "bad end: offset %u size %u len %zu\n", Off, Size, Len);
    return false;
  }
  return true;
}
