// A byte buffer whose reads are bounds-checked by Buffer::checkRange(),
// defined out of class in src/buffer.cpp and called from the other files.
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
  bool checkRange(unsigned Off, unsigned Size) const;
  std::uint16_t get16(unsigned Off) const;
  std::uint32_t get32(unsigned Off) const;
  unsigned char at(unsigned Off) const { return Data[Off]; }

private:
  std::size_t Len;
  std::vector<unsigned char> Data;
};

#endif // BUFFER_H
