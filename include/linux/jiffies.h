/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_JIFFIES_H
#define _LINUX_JIFFIES_H

#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/time64.h>
#include <linux/typecheck.h>
#include <linux/types.h>

/*
 * Jiffies: the tick count. The boot CPU's periodic tick (CONFIG_HZ a
 * second) moves jiffies_64 forward; no other CPU writes it. It follows the
 * clock rather than counting interrupts: after each boot CPU tick,
 *
 *	jiffies_64 == ktime_get_ns() at that tick / TICK_NSEC
 *
 * so a tick the CPU missed (interrupts disabled for long, the virtual CPU
 * not scheduled) is caught up at the next one, and jiffies never run
 * ahead of ktime_get_ns(). With tick=off on the command line it stays 0.
 *
 * jiffies is the same variable as an unsigned long (the linker script
 * aliases the two, as Linux does on 64-bit): read it, never write it.
 * Compare jiffies values only with the time_after() family below, which
 * stays right across a wrap (jiffies wrap only after ~584 million years,
 * but values computed from them, such as jiffies + delay, may be anything).
 */
#define HZ CONFIG_HZ
#if HZ < 100 || HZ > 1000
#error "CONFIG_HZ must be within 100..1000"
#endif

/* Nanoseconds per tick, rounded to the nearest. */
#define TICK_NSEC ((NSEC_PER_SEC + HZ / 2) / HZ)

/* The largest relative timeout the conversions below return. */
#define MAX_JIFFY_OFFSET ((LONG_MAX >> 1) - 1)

extern u64 jiffies_64;
extern unsigned long volatile jiffies;

static inline u64 get_jiffies_64(void)
{
	return READ_ONCE(jiffies_64);
}

/*
 * time_after(a, b) is true if a is after b: a - b is positive as a signed
 * long, so the answer is right as long as a and b are less than
 * LONG_MAX jiffies apart, wherever they sit around a wrap. Both must be
 * unsigned long (a compile-time error otherwise); the *64 forms take u64.
 */
#define time_after(a, b)                                          \
	(typecheck(unsigned long, a) && typecheck(unsigned long, b) && \
	 ((long)((b) - (a)) < 0))
#define time_before(a, b) time_after(b, a)

#define time_after_eq(a, b)                                       \
	(typecheck(unsigned long, a) && typecheck(unsigned long, b) && \
	 ((long)((a) - (b)) >= 0))
#define time_before_eq(a, b) time_after_eq(b, a)

/* b <= a <= c, and b <= a < c, in the time_after() sense. */
#define time_in_range(a, b, c) (time_after_eq(a, b) && time_before_eq(a, c))
#define time_in_range_open(a, b, c) (time_after_eq(a, b) && time_before(a, c))

#define time_after64(a, b)                              \
	(typecheck(u64, a) && typecheck(u64, b) &&      \
	 ((s64)((b) - (a)) < 0))
#define time_before64(a, b) time_after64(b, a)
#define time_after_eq64(a, b)                           \
	(typecheck(u64, a) && typecheck(u64, b) &&      \
	 ((s64)((a) - (b)) >= 0))
#define time_before_eq64(a, b) time_after_eq64(b, a)
#define time_in_range64(a, b, c) \
	(time_after_eq64(a, b) && time_before_eq64(a, c))

/*
 * Conversions. To jiffies they round up, so that a timeout of at least
 * m ms is never shorter; a "negative" argument (above INT_MAX) gives
 * MAX_JIFFY_OFFSET. From jiffies they round down.
 */
static inline unsigned long msecs_to_jiffies(const unsigned int m)
{
	if ((int)m < 0)
		return MAX_JIFFY_OFFSET;
	return DIV_ROUND_UP((unsigned long)m * HZ, MSEC_PER_SEC);
}

static inline unsigned long usecs_to_jiffies(const unsigned int u)
{
	if ((int)u < 0)
		return MAX_JIFFY_OFFSET;
	return DIV_ROUND_UP((unsigned long)u * HZ, USEC_PER_SEC);
}

static inline unsigned int jiffies_to_msecs(const unsigned long j)
{
	return j * MSEC_PER_SEC / HZ;
}

static inline unsigned int jiffies_to_usecs(const unsigned long j)
{
	return j * USEC_PER_SEC / HZ;
}

#endif /* _LINUX_JIFFIES_H */
