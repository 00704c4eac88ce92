// hotpath-args: -std=c++17
// A C++ member check whose conditions call the standard containers'
// observers (size(), operator[] const, empty()) and a static inline helper
// that walks a vector with a local iterator: all only read, so the check is
// reported and fixed.
#include <cstdio>
#include <vector>

static inline bool all_positive(const std::vector<int> &v) {
  for (auto it = v.begin(); it != v.end(); ++it)
    if (*it <= 0)
      return false;
  return true;
}

class Table {
public:
  bool checkRow(std::size_t row) const;
  long sum() const;

private:
  std::vector<int> cells_{1, 2, 3, 4};
  std::vector<int> widths_{4, 4, 4, 4};
};

bool Table::checkRow(std::size_t row) const {
// CHECK-MESSAGES: :[[@LINE-1]]:13: warning: check function 'checkRow' tests 2 conditions on a hot path; merge them into one unlikely branch and move the reporting to a cold function [hotpath-check-split]
// CHECK-MESSAGES: :[[@LINE-2]]:13: note: 'checkRow' is hot: 1 call site, 1 in loops
  if (row >= cells_.size() || cells_.empty()) {
    std::fprintf(stderr, "row %zu beyond %zu\n", row, cells_.size());
    return false;
  }
  if (widths_[row] == 0 || !all_positive(widths_)) {
    std::fprintf(stderr, "row %zu has no width\n", row);
    return false;
  }
  return true;
}

long Table::sum() const {
  long s = 0;
  for (std::size_t r = 0; r < 8; r++)
    if (checkRow(r))
      s += cells_[r];
  return s;
}
