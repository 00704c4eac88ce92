// A C++ member function defined out of line, its class in a header: the
// slow path is declared in the class, the fast path follows the class.
#include <cstdio>
#include "member.h"

namespace store {
bool Page::checkRange(std::size_t off, std::size_t n) const {
// CHECK-MESSAGES: :[[@LINE-1]]:12: warning: check function 'checkRange' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-2]]:12: note: 'checkRange' is hot: called by get (member.cpp:21), which is called in a loop in sumPage (member.cpp:30)
  if (off > size_) {
    std::fprintf(stderr, "offset %zu beyond %zu\n", off, size_);
    return false;
  }
  if (n > size_ - off) {
    std::fprintf(stderr, "length %zu at %zu beyond %zu\n", n, off, size_);
    return false;
  }
  return true;
}

unsigned char Page::get(std::size_t off) const { return checkRange(off, 1) ? bytes_[off] : 0; }
unsigned short Page::get16(std::size_t off) const { return checkRange(off, 2) ? bytes_[off] : 0; }
unsigned int Page::get32(std::size_t off) const { return checkRange(off, 4) ? bytes_[off] : 0; }
} // namespace store

// Called in a loop: the chain of calls makes checkRange hot.
unsigned sumPage(const store::Page &p) {
  unsigned s = 0;
  for (std::size_t i = 0; i < 8; i++)
    s += p.get(i);
  return s;
}
