// The "no check" build: checkRange() always passes.
#ifndef BUFFER_H
#define BUFFER_H

#include <cstddef>
#include <cstdint>
#include <vector>

class Buffer {
public:
  explicit Buffer(std::size_t Len);
  void fill(unsigned long long Seed);
  // True when [Off, Off + Size) lies inside the buffer; reports when not.
  bool checkRange(unsigned, unsigned) const { return true; }
  std::uint16_t get16(unsigned Off) const;
  std::uint32_t get32(unsigned Off) const;
  unsigned char at(unsigned Off) const { return Data[Off]; }

private:
  std::size_t Len;
  std::vector<unsigned char> Data;
};

#endif // BUFFER_H
