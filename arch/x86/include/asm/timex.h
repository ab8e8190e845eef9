/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_TIMEX_H
#define _ASM_X86_TIMEX_H

#include <linux/types.h>

/*
 * The cycle counter timekeeping reads: the TSC, at tsc_khz. The lfence
 * keeps rdtsc from running ahead of the loads before it, so that a time
 * read after a value is never older than the value.
 */
static inline u64 get_cycles(void)
{
	u32 lo, hi;

	asm volatile("lfence; rdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return ((u64)hi << 32) | lo;
}

#endif /* _ASM_X86_TIMEX_H */
