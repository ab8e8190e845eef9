/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_ERRNO_H
#define _LINUX_ERRNO_H

#define EPERM 1
#define ESRCH 3
#define EBADF 9
#define ECHILD 10
#define EACCES 13
#define ENOTTY 25
#define ESPIPE 29
#define EMFILE 24
#define ENAMETOOLONG 36
#define ENOENT 2
#define EIO 5
#define ENXIO 6
#define E2BIG 7
#define ENOEXEC 8
#define EAGAIN 11
#define ENOMEM 12
#define EFAULT 14
#define EBUSY 16
#define EEXIST 17
#define ENODEV 19
#define ENOTDIR 20
#define EINVAL 22
#define ENOSPC 28
#define ERANGE 34
#define EINTR 4
#define ENOSYS 38
#define EBADMSG 74
#define EOVERFLOW 75
#define ETIMEDOUT 110
#define EPIPE 32
#define EROFS 30
#define EMSGSIZE 90
#define EALREADY 114

#endif /* _LINUX_ERRNO_H */
