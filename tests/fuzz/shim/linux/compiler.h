/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host stand-in for <linux/compiler.h> (see kernel.h here): the kernel's
 * own, after the C library's definition of a name both make.
 */
#ifndef _FUZZ_SHIM_LINUX_COMPILER_H
#define _FUZZ_SHIM_LINUX_COMPILER_H

#include <sys/cdefs.h>
#undef __always_inline
#include_next <linux/compiler.h>

#endif
