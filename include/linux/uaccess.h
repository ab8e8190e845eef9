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

#endif /* _LINUX_UACCESS_H */
