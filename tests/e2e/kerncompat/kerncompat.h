/* User-space stand-ins for the kernel's annotations, as btrfs-progs'
 * kerncompat.h has them: defined, so code written for the kernel compiles,
 * but doing nothing here. */
#ifndef KERNCOMPAT_H
#define KERNCOMPAT_H

#define __cold
#define noinline
#define unlikely(x) (x)
#define likely(x) (x)

#endif /* KERNCOMPAT_H */
