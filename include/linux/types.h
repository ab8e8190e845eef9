/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_TYPES_H
#define _LINUX_TYPES_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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
