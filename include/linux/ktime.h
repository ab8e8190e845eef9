/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_KTIME_H
#define _LINUX_KTIME_H

#include <linux/time64.h>
#include <linux/types.h>

/* A time or an interval, in nanoseconds (signed, as in Linux). */
typedef s64 ktime_t;

static inline s64 ktime_to_ns(const ktime_t kt)
{
	return kt;
}

static inline ktime_t ns_to_ktime(u64 ns)
{
	return ns;
}

static inline s64 ktime_to_us(const ktime_t kt)
{
	return kt / NSEC_PER_USEC;
}

static inline s64 ktime_to_ms(const ktime_t kt)
{
	return kt / NSEC_PER_MSEC;
}

#endif /* _LINUX_KTIME_H */
