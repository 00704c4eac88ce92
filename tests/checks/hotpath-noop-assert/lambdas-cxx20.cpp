// hotpath-args: -std=c++20
// C++20: the same lambdas, templates, enum classes, explicit operator bool. The fix
// must compile with lambdas in the argument (no sizeof before C++20).
#include <vector>

#ifdef ENABLE_ASSERTS
#define ASSERT(x) ((x) ? (void)0 : __builtin_trap())
#else
#define ASSERT(x) static_cast<void>(x)
// CHECK-MESSAGES: :[[@LINE-1]]:9: warning: disabled assert 'ASSERT' still evaluates its argument; make it type-check the argument without evaluating it [hotpath-noop-assert]
#endif

enum class state { idle, busy };
struct handle {
  int *p;
  state s;
  explicit operator bool() const { return p != nullptr; }
};

template <typename T> bool positive(T v) { return v > T(0); }

template <typename T> struct box {
  T v;
  bool valid() const { return v != T(); }
};

template <typename T> int get(const box<T> &b) {
  ASSERT(b.valid());
  ASSERT([&] { return b.valid(); }());
  return static_cast<int>(b.v);
}

bool ext_ok(const handle &); // in another file: the call the compiler must keep

int run(handle &h, const std::vector<int> &v, int n) {
  int calls = 0;
  ASSERT(ext_ok(h));
  // CHECK-MESSAGES: :[[@LINE-1]]:3: note: its use here does work the compiler must keep: it calls 'ext_ok', whose body is not visible and which is not known to be pure
  ASSERT(calls == 0);
  ASSERT(h);
  ASSERT(h.s == state::busy);
  ASSERT(positive<int>(n));
  ASSERT([&] { return n > 0; }());
  ASSERT([](int x) { return x > 0; }(n));
  ASSERT(!v.empty());
  return get(box<int>{n}) + calls;
}
