// SPDX-License-Identifier: GPL-2.0
/*
 * The TSC's rate, measured against the PIT: channel 2 counts down a known
 * interval (its gate is bit 0 of port 0x61, its output reads back as bit 5)
 * while the TSC runs. The shortest of a few runs is kept, since a run can
 * only be stretched (the CPU delayed in noticing the end), never shortened.
 */
#define pr_fmt(fmt) "tsc: " fmt

#include <linux/kernel.h>
#include <linux/init.h>
#include <asm/io.h>
#include <asm/processor.h>
#include <asm/tsc.h>

#define PIT_HZ 1193182
#define PIT_CH2 0x42
#define PIT_MODE 0x43
#define PIT_CH2_GATE_PORT 0x61
#define PIT_GATE2 0x01
#define PIT_SPEAKER 0x02
#define PIT_OUT2 0x20

#define CALIBRATE_MS 10
#define CALIBRATE_RUNS 3
#define CALIBRATE_MAX_POLLS 100000000UL
#define TSC_KHZ_FALLBACK 1000000 /* 1 GHz: a guess, if the PIT fails */

unsigned long tsc_khz __ro_after_init;

/* TSC ticks over CALIBRATE_MS of PIT channel 2, or 0 if it never ends. */
static u64 __init pit_measure_tsc(void)
{
	unsigned int latch = PIT_HZ / (1000 / CALIBRATE_MS);
	u8 gate = inb(PIT_CH2_GATE_PORT);
	unsigned long polls = 0;
	u64 start, end;

	/* Gate high, speaker off; channel 2, lobyte/hibyte, mode 0. */
	outb((gate & ~PIT_SPEAKER) | PIT_GATE2, PIT_CH2_GATE_PORT);
	outb(0xb0, PIT_MODE);
	outb(latch & 0xff, PIT_CH2);
	outb(latch >> 8, PIT_CH2);
	start = rdtsc();
	/* Mode 0: the output goes high when the count reaches zero. */
	while (!(inb(PIT_CH2_GATE_PORT) & PIT_OUT2))
		if (++polls == CALIBRATE_MAX_POLLS)
			return 0;
	end = rdtsc();
	outb(gate, PIT_CH2_GATE_PORT);
	return end - start;
}

void __init tsc_init(void)
{
	u64 best = 0;
	int i;

	for (i = 0; i < CALIBRATE_RUNS; i++) {
		u64 ticks = pit_measure_tsc();

		if (ticks && (!best || ticks < best))
			best = ticks;
	}
	if (!best) {
		tsc_khz = TSC_KHZ_FALLBACK;
		pr_err("PIT calibration failed, assuming %lu MHz\n",
		       tsc_khz / 1000);
		return;
	}
	tsc_khz = best / CALIBRATE_MS;
	pr_info("%lu.%03lu MHz (PIT calibration)\n", tsc_khz / 1000,
		tsc_khz % 1000);
}
