/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_TEXT_PATCHING_STATS_H
#define _ASM_X86_TEXT_PATCHING_STATS_H

/*
 * The patch engine's counters and hooks, for tests and benchmarks only.
 * Code that patches text uses <asm/text-patching.h>.
 */
#include <linux/types.h>

/* Counts since boot. */
struct text_poke_stats {
	unsigned long sites;		/* sites written through batches */
	unsigned long batches;		/* batches applied */
	unsigned long passes;		/* write passes (3 a batch, 1 a text_poke()) */
	unsigned long sync_rounds;	/* sync_core() rounds on every CPU */
	unsigned long early_flushes;	/* batches applied because memory ran out */
	unsigned long parked_rounds;	/* last writes made with the others parked */
};

extern struct text_poke_stats text_poke_stats;

/* int3 traps the handler emulated, summed over per-CPU counters. */
unsigned long text_poke_int3_hits(void);
/* The same, one CPU's (the console's cpus command). */
unsigned long text_poke_cpu_int3_hits(unsigned int cpu);

/* text_poke.batch=0 on the command line: one site per batch. */
extern bool text_poke_batching;

/*
 * text_poke.park=auto|on|off (the setter, for tests to parse with), what
 * it resolved to at boot, and whether CPUID says QEMU's TCG runs us.
 */
enum { TEXT_POKE_PARK_AUTO, TEXT_POKE_PARK_ON, TEXT_POKE_PARK_OFF };
struct kernel_param;
int text_poke_param_park(const char *val, const struct kernel_param *kp);
bool text_poke_parks(void);
bool text_poke_under_tcg(void);

/* Called on the patching CPU after these protocol steps. */
enum text_poke_step {
	TEXT_POKE_INT3_WRITTEN,
	TEXT_POKE_TAILS_WRITTEN,
};
extern void (*text_poke_test_hook)(enum text_poke_step step);

#endif /* _ASM_X86_TEXT_PATCHING_STATS_H */
