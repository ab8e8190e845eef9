/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host stand-in for <linux/kernel.h>, for the console's fuzz target
 * (tests/fuzz/shell_fuzz.c): what kernel/shell/parse.c and editor.c use,
 * over the C library. Only this shim directory comes before include/.
 */
#ifndef _FUZZ_SHIM_LINUX_KERNEL_H
#define _FUZZ_SHIM_LINUX_KERNEL_H

#include <stdio.h>
#include <linux/compiler.h>
#include <linux/types.h>

#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
#define BUILD_BUG_ON(cond) _Static_assert(!(cond), "BUILD_BUG_ON failed: " #cond)

/* As the kernel's: the bytes written, never more than size - 1. */
static inline int scnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list args;
	int n;

	if (!size)
		return 0;
	va_start(args, fmt);
	n = vsnprintf(buf, size, fmt, args);
	va_end(args);
	if (n < 0)
		return 0;
	return (size_t)n >= size ? (int)size - 1 : n;
}

#endif
