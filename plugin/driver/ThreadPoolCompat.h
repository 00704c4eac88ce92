//===--- driver/ThreadPoolCompat.h - the thread pool ---------- -*- C++ -*-===//
//
// LLVM 19 made llvm::ThreadPool an interface (ThreadPoolInterface) and named
// the pool DefaultThreadPool (StdThreadPool, or SingleThreadExecutor when
// LLVM is built without threads); LLVM 16 has the one class ThreadPool.
// Both take a ThreadPoolStrategy and have async() and wait(). The driver
// alone uses a thread pool, so the difference lives here rather than in
// support/Compat.h.
//
//===----------------------------------------------------------------------===//
#ifndef HOTPATH_DRIVER_THREADPOOLCOMPAT_H
#define HOTPATH_DRIVER_THREADPOOLCOMPAT_H

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/ThreadPool.h"

namespace hotpath::driver::compat {

#if LLVM_VERSION_MAJOR >= 19
using ThreadPool = llvm::DefaultThreadPool;
#else
using ThreadPool = llvm::ThreadPool;
#endif

} // namespace hotpath::driver::compat

#endif
