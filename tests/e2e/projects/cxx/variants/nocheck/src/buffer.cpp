// The "no check" build (include/buffer.h): no bounds check, for the
// instruction counts the fix is judged by.
#include "buffer.h"

Buffer::Buffer(std::size_t Len) : Len(Len), Data(Len) {}

void Buffer::fill(unsigned long long Seed) {
  for (unsigned char &C : Data) {
    Seed = Seed * 6364136223846793005ull + 1442695040888963407ull;
    C = static_cast<unsigned char>(Seed >> 56);
  }
}
