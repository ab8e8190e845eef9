/* SPDX-License-Identifier: GPL-2.0 */
/* Host stand-in for <linux/string.h> (see kernel.h here). */
#ifndef _FUZZ_SHIM_LINUX_STRING_H
#define _FUZZ_SHIM_LINUX_STRING_H

#include <linux/errno.h>
#include <string.h>

/* As lib/string.c's: copies what fits, always terminated; -E2BIG if cut. */
static inline size_t strscpy(char *dst, const char *src, size_t size)
{
	size_t len;

	if (!size)
		return (size_t)-E2BIG;
	len = strnlen(src, size);
	if (len == size)
		len = size - 1;
	memcpy(dst, src, len);
	dst[len] = '\0';
	return src[len] ? (size_t)-E2BIG : len;
}

#endif
