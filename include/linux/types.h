/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_TYPES_H
#define _LINUX_TYPES_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/*
 * bool as Linux has it: a type, not <stdbool.h>'s macro, so that
 * module_param(x, bool, 0) pastes and names the type "bool".
 */
typedef _Bool bool;
enum { false = 0, true = 1 };

typedef int8_t s8;
typedef uint8_t u8;
typedef int16_t s16;
typedef uint16_t u16;
typedef int32_t s32;
typedef uint32_t u32;
typedef long long s64;
typedef unsigned long long u64;

typedef long ssize_t;
typedef u64 phys_addr_t;

typedef struct {
	int counter;
} atomic_t;

#endif /* _LINUX_TYPES_H */
