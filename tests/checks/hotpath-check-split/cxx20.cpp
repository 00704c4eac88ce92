// hotpath-args: -std=c++20
// In C++20 the fix spells the branch weight [[unlikely]] and the slow path
// [[gnu::noinline, gnu::cold]].
#include <cstdio>

namespace {
bool checkIndex(unsigned idx, unsigned size, unsigned cap) {
  if (idx >= size) {
    std::printf("index %u out of range %u\n", idx, size);
    return false;
  }
  if (size > cap) {
    std::printf("size %u over capacity %u\n", size, cap);
    return false;
  }
  return true;
}
} // namespace

int sum(const int *v, unsigned size) {
  int s = 0;
  for (unsigned i = 0; i < size; ++i)
    if (checkIndex(i, size, 1024))
      s += v[i];
  return s;
}
