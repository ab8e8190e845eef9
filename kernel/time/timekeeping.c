// SPDX-License-Identifier: GPL-2.0
/*
 * ktime_get_ns(): cycles since timekeeping_init() times a fixed-point
 * factor. mult is nanoseconds per cycle in units of 2^-32, so
 *
 *	ns = (cycles * mult) >> 32
 *
 * taken through a 128-bit product: no overflow for any 64-bit cycle
 * count. At 1 GHz mult is 2^32; its rounding error is below one part in
 * 10^9 at any rate up to 4 GHz, some milliseconds a month at worst.
 */
#define pr_fmt(fmt) "timekeeping: " fmt

#include <linux/kernel.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/timekeeping.h>
#include <asm/timex.h>

#define TK_SHIFT 32

static u64 tk_cycle_base __ro_after_init;
static u64 tk_mult __ro_after_init;

u64 ktime_get_ns(void)
{
	u64 cycles = get_cycles() - tk_cycle_base;

	return ((unsigned __int128)cycles * tk_mult) >> TK_SHIFT;
}
EXPORT_SYMBOL_GPL(ktime_get_ns);

void __init timekeeping_init(unsigned long khz)
{
	BUG_ON(!khz);
	tk_mult = ((u64)NSEC_PER_MSEC << TK_SHIFT) / khz;
	tk_cycle_base = get_cycles();
	pr_info("monotonic clock at %lu kHz, %llu.%09llu ns a cycle\n", khz,
		tk_mult >> TK_SHIFT,
		((tk_mult & 0xffffffffULL) * NSEC_PER_SEC) >> TK_SHIFT);
}
