/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_TIMEKEEPING_H
#define _LINUX_TIMEKEEPING_H

#include <linux/init.h>
#include <linux/ktime.h>
#include <linux/types.h>

/*
 * The monotonic clock: nanoseconds since timekeeping_init(), early in
 * boot, read from the architecture's cycle counter (get_cycles(), the TSC
 * on x86). The conversion is a multiply and a shift through a 128-bit
 * product, so it neither overflows nor loses precision however long the
 * machine runs (a u64 of nanoseconds lasts 584 years). Any context, no
 * lock. It never goes back on one CPU; across CPUs it is as consistent as
 * their counters (QEMU's TSCs agree). 0 before timekeeping_init().
 */
u64 ktime_get_ns(void);

static inline ktime_t ktime_get(void)
{
	return ns_to_ktime(ktime_get_ns());
}

/* The clock counts khz thousand cycles a second from now on. Once. */
void __init timekeeping_init(unsigned long khz);

#endif /* _LINUX_TIMEKEEPING_H */
