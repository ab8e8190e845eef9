/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_TEXT_PATCHING_H
#define _LINUX_TEXT_PATCHING_H

/*
 * What generic code may read of the patch engine (arch/x86/kernel/
 * text_patch.c implements it): its counters since boot. The console,
 * benchmarks and tests take differences of two reads. Patching itself is
 * the arch's (<asm/text-patching.h>, behind <linux/jump_label_arch.h>).
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
};

/*
 * Sites the jump-label glue and the static-call glue queued for writing
 * (under text_mutex; arch/x86/kernel/static_call.c holds both), so that a
 * caller can tell which kind a change of text_poke_stats.sites was.
 */
extern unsigned long text_poke_jump_label_sites, text_poke_static_call_sites;

/* A copy of the counters now. */
struct text_poke_stats text_poke_get_stats(void);

/* int3 traps the engine's handler emulated, summed over the CPUs. */
unsigned long text_poke_int3_hits(void);
/* The same, one CPU's. */
unsigned long text_poke_cpu_int3_hits(unsigned int cpu);

#endif /* _LINUX_TEXT_PATCHING_H */
