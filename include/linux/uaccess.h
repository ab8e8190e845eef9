/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_UACCESS_H
#define _LINUX_UACCESS_H

#include <linux/types.h>

/*
 * Kernel accesses that may fault: a fault is caught through the exception
 * table and the call returns -EFAULT, having copied some prefix. 0 means
 * every byte was copied.
 */
long copy_from_kernel_nofault(void *dst, const void *src, size_t size);
long copy_to_kernel_nofault(void *dst, const void *src, size_t size);
/* Calls fn(); -EFAULT if its first instruction could not be fetched. */
long call_nofault(void (*fn)(void));

#define get_kernel_nofault(val, ptr) \
	copy_from_kernel_nofault(&(val), (ptr), sizeof(val))

/* Marks a pointer into user memory (documentation only, as in sparse). */
#ifndef __user
#define __user
#endif

/*
 * User memory, below USER_ADDR_END and mapped in the current process: a
 * range reaching past the end, or a page fault on the way, and the copy
 * stops. copy_from_user()/copy_to_user() return the bytes not copied (0:
 * all); strncpy_from_user() the string's length without the NUL, n if no
 * NUL came within n bytes, or -EFAULT (a fault, or the end of user space
 * before n bytes and the NUL).
 */
unsigned long copy_from_user(void *to, const void __user *from,
			     unsigned long n);
unsigned long copy_to_user(void __user *to, const void *from,
			   unsigned long n);
long strncpy_from_user(char *dst, const char __user *src, long n);

#endif /* _LINUX_UACCESS_H */
