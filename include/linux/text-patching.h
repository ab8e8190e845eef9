/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_TEXT_PATCHING_H
#define _LINUX_TEXT_PATCHING_H

/*
 * What generic code may read of the patch engine (arch/x86/kernel/
 * text_patch.c implements it): its counters since boot. The console,
 * benchmarks and tests take differences of two reads. Patching itself is
 * the text batch's (<linux/text_batch.h>), over the arch's engine.
 */
#include <linux/types.h>

struct text_poke_stats {
	unsigned long sites;		/* sites written through batches */
	unsigned long batches;		/* batches applied */
	unsigned long passes;		/* write passes (3 a batch, 1 a text_poke()) */
	unsigned long sync_rounds;	/* sync_core() rounds on every CPU */
	unsigned long early_flushes;	/* batches applied because memory ran out */
	unsigned long parked_rounds;	/* last writes made with the others parked */
	unsigned long nx_sites;		/* sites written in text not executable yet */
	unsigned long stale_int3s;	/* int3s run again: removed once fetched */
};

/*
 * Sites the jump-label glue and the static-call glue queued for writing
 * (under text_mutex; arch/x86/kernel/static_call.c holds both), so that a
 * caller can tell which kind a change of text_poke_stats.sites was.
 */
extern unsigned long text_poke_jump_label_sites, text_poke_static_call_sites;

/**
 * text_poke_get_stats() - the patch engine's counters
 *
 * Context: any context; the counters change under text_mutex, so a
 * reader that does not hold it may see a batch half counted.
 * Return: a copy of the counters now.
 */
struct text_poke_stats text_poke_get_stats(void);

/**
 * text_poke_int3_hits() - int3 traps the batch handler emulated
 *
 * Context: any context.
 * Return: the traps at sites of a batch in flight, since boot, summed
 * over the possible CPUs.
 */
unsigned long text_poke_int3_hits(void);

/**
 * text_poke_cpu_int3_hits() - int3 traps one CPU's handler emulated
 * @cpu: the CPU
 *
 * Context: any context.
 * Return: the traps @cpu took at sites of a batch in flight, since boot.
 */
unsigned long text_poke_cpu_int3_hits(unsigned int cpu);

#endif /* _LINUX_TEXT_PATCHING_H */
