#pragma once
#include <cstddef>

namespace store {
class Page {
public:
  bool checkRange(std::size_t off, std::size_t n) const;
  unsigned char get(std::size_t off) const;
  unsigned short get16(std::size_t off) const;
  unsigned int get32(std::size_t off) const;

private:
  std::size_t size_ = 4096;
  unsigned char bytes_[4096] = {};
};
} // namespace store
