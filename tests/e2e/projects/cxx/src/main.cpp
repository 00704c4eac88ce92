// main OPS [SEED [BAD]]: OPS random reads from a 4096-byte buffer; every
// BAD-th one (0: none) out of bounds. Prints a checksum; exits 3 when a read
// was out of bounds, 2 on bad arguments.
#include "buffer.h"

#include <cstdio>
#include <cstdlib>

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s OPS [SEED [BAD]]\n", argv[0]);
    return 2;
  }
  unsigned long Ops = std::strtoul(argv[1], nullptr, 0);
  unsigned long long State = argc > 2 ? std::strtoull(argv[2], nullptr, 0) * 2654435761u + 1 : 1;
  unsigned long Bad = argc > 3 ? std::strtoul(argv[3], nullptr, 0) : 0, OutOfBounds = 0;
  const unsigned Len = 4096;
  Buffer B(Len);
  B.fill(State);
  unsigned long long Sum = 0;
  for (unsigned long I = 0; I < Ops; ++I) {
    State ^= State << 13;
    State ^= State >> 7;
    State ^= State << 17;
    unsigned Off = static_cast<unsigned>((State >> 8) % (Len - 7));
    if (Bad && I % Bad == Bad - 1) {
      Off = Len - 3 + static_cast<unsigned>((State >> 20) % 8);
      ++OutOfBounds;
    }
    Sum += (State & 1) ? B.get32(Off) : B.get16(Off);
    if (B.checkRange(Off, 1))
      Sum += B.at(Off);
  }
  std::printf("ops=%lu sum=%llu\n", Ops, Sum);
  return OutOfBounds ? 3 : 0;
}
