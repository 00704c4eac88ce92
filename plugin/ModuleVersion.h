//===--- ModuleVersion.h - which clang-tidy the module may run in -*- C++ -*-===//
//
// Plain std::string code, no LLVM: it runs inside a host clang-tidy whose
// LLVM may not be the one the module was built against (see
// HotpathTidyModule.cpp), so it must not call into LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef HOTPATH_TIDY_MODULEVERSION_H
#define HOTPATH_TIDY_MODULEVERSION_H

#include <cctype>
#include <string>

namespace hotpath {

/// The major version in a clang version string ("Debian clang version
/// 22.1.8 (++20250...)" -> 22), or -1 when there is none.
inline int hostMajorVersion(const std::string &FullVersion) {
  const std::string Key = "version ";
  size_t At = FullVersion.find(Key);
  if (At == std::string::npos)
    return -1;
  At += Key.size();
  int Major = -1;
  for (; At < FullVersion.size() && std::isdigit(static_cast<unsigned char>(FullVersion[At]));
       ++At)
    Major = (Major < 0 ? 0 : Major * 10) + (FullVersion[At] - '0');
  return Major;
}

/// What the module says before it stops a clang-tidy of another major.
inline std::string foreignHostMessage(int HostMajor, const std::string &HostVersion,
                                      int BuiltMajor, const std::string &BuiltVersion) {
  std::string H = std::to_string(HostMajor), B = std::to_string(BuiltMajor);
  return "error: the hotpath-tidy module was built for clang-tidy " + B + " (LLVM " +
         BuiltVersion + ") and cannot run in this clang-tidy " + H + " (" + HostVersion +
         "): its checks would find nothing. Load it into clang-tidy-" + B +
         ", or build it for this one with cmake -DHOTPATH_LLVM_MAJOR=" + H + ".";
}

} // namespace hotpath

#endif // HOTPATH_TIDY_MODULEVERSION_H
