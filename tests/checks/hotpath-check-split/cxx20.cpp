// hotpath-args: -std=c++20
// In C++20 the fix spells the branch weight [[unlikely]] and the slow path
// [[gnu::noinline, gnu::cold]].
#include <cstdio>

namespace {
bool checkIndex(unsigned idx, unsigned size, unsigned cap) {
// CHECK-MESSAGES: :[[@LINE-1]]:6: warning: check function 'checkIndex' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-2]]:6: note: 'checkIndex' is hot: 1 call site, 1 in loops
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
