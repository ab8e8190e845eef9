// SPDX-License-Identifier: GPL-2.0
/* udelay() and mdelay(): TSC busy-waits; see <linux/delay.h>. */
#include <linux/delay.h>
#include <linux/export.h>
#include <asm/processor.h>
#include <asm/tsc.h>

void udelay(unsigned long usecs)
{
	u64 start = rdtsc(), ticks = (u64)usecs * tsc_khz / 1000;

	while (rdtsc() - start < ticks)
		cpu_relax();
}
EXPORT_SYMBOL(udelay);

void mdelay(unsigned long msecs)
{
	while (msecs--)
		udelay(1000);
}
EXPORT_SYMBOL(mdelay);
