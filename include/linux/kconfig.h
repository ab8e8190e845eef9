/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_KCONFIG_H
#define _LINUX_KCONFIG_H

#include <generated/autoconf.h>

/*
 * IS_ENABLED(option) is 1 when the option is y (defined to 1), else 0,
 * usable in C expressions and #if alike: "1" pastes into a placeholder that
 * inserts an extra argument, shifting the second-argument pick to 1.
 */
#define __ARG_PLACEHOLDER_1 0,
#define __take_second_arg(__ignored, val, ...) val
#define __is_defined(x) ___is_defined(x)
#define ___is_defined(val) ____is_defined(__ARG_PLACEHOLDER_##val)
#define ____is_defined(arg1_or_junk) __take_second_arg(arg1_or_junk 1, 0)

#define IS_ENABLED(option) __is_defined(option)
#define IS_BUILTIN(option) __is_defined(option)

#endif /* _LINUX_KCONFIG_H */
