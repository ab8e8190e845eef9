/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_TEXT_SYNC_H
#define _ASM_X86_TEXT_SYNC_H

/*
 * Where each CPU is, for the patch engine's sync rounds (text_sync.c):
 * in the kernel, idle (halted in the idle loop) or in user mode. A sync
 * round interrupts only the CPUs in the kernel; one that is idle or in
 * user mode runs no kernel text, and serializes on its way back in if
 * the text generation moved meanwhile, before it can reach any patchable
 * site (scripts/check_entry_sync.py proves that from the linked image).
 *
 * The state is a per-CPU int, 0 (CT_KERNEL) at boot and for every CPU
 * that comes online. The entry code sets it with TEXT_SYNC_ENTER; the
 * exits to user mode and the idle halt set it with TEXT_SYNC_LEAVE, just
 * before the instruction that leaves (sysretq, iretq, hlt).
 */
#define CT_KERNEL 0
#define CT_IDLE 1
#define CT_USER 2

#ifdef __ASSEMBLY__

/*
 * The places scripts/check_entry_sync.py starts from or stops at, in a
 * section that is not loaded: TS_POINT_ENTER, where an entry has
 * serialized (every path from an entry must reach one before any site);
 * TS_POINT_LEAVE, where a CPU stops counting as in the kernel (no site
 * may follow before it leaves); TS_POINT_WAKE, where a halted CPU goes
 * on (an entry of the check, as the IDT's and SYSCALL's are).
 */
#define TS_POINT_ENTER 1
#define TS_POINT_LEAVE 2
#define TS_POINT_WAKE 3

.macro TEXT_SYNC_POINT kind
	.pushsection .text_sync_points, "", @progbits
	.quad	.Lts_point_\@
	.quad	\kind
	.popsection
.Lts_point_\@:
.endm

/*
 * Marks this CPU in the kernel and, coming from idle or user mode,
 * serializes it if the text generation moved since it last did (through
 * text_sync_enter_slow, which keeps every register). Clobbers \tmp (a
 * 32-bit register) and the flags. Needs %gs on the kernel's and a stack.
 * from_user=1: the entry only comes from user mode (SYSCALL), so the old
 * state need not be looked at (were it CT_KERNEL, the compare would at
 * worst serialize once more than needed).
 *
 * The xchg is a full barrier: either the patcher, which bumps the
 * generation before it reads the states, sees this CPU in the kernel and
 * interrupts it, or this CPU sees the new generation.
 */
.macro TEXT_SYNC_ENTER tmp from_user=0
	TEXT_SYNC_POINT TS_POINT_ENTER
	movl	$CT_KERNEL, \tmp
	xchgl	\tmp, %gs:text_sync_cpu_state
	.if !\from_user
	testl	\tmp, \tmp
	jz	.Lts_in_\@			/* in the kernel: sent every round */
	.endif
	movl	text_sync_gen(%rip), \tmp
	cmpl	\tmp, %gs:text_sync_cpu_gen
	je	.Lts_in_\@
	call	text_sync_enter_slow
.Lts_in_\@:
.endm

/*
 * CONFIG_TEXT_SYNC_PLANT only: a static branch site of a key that is off,
 * or (call=1) a call of a function that holds one, where no site may be
 * (the build must fail, see lib/Kconfig.debug).
 */
.macro TEXT_SYNC_PLANT call=0
#ifdef CONFIG_TEXT_SYNC_PLANT
	.if \call
	call	text_sync_plant_fn
	.else
.Lts_plant_\@:
	jmp	.Lts_planted_\@
	.pushsection __jump_table, "aw"
	.balign 4
	.long	.Lts_plant_\@ - .
	.long	.Lts_planted_\@ - .
	.long	text_sync_plant_key - .
	.popsection
.Lts_planted_\@:
	.endif
#endif
.endm

/* This CPU leaves for \state (CT_USER or CT_IDLE): no site from here on. */
.macro TEXT_SYNC_LEAVE state
	TEXT_SYNC_POINT TS_POINT_LEAVE
	movl	$\state, %gs:text_sync_cpu_state
.endm

#else /* !__ASSEMBLY__ */

#include <linux/cpumask.h>
#include <linux/jump_label.h>
#include <linux/percpu.h>
#include <linux/types.h>

DECLARE_PER_CPU(int, text_sync_cpu_state);
DECLARE_PER_CPU(unsigned int, text_sync_cpu_gen);
/* On while this CPU is the only one online (<linux/cpus_alone.h>). */
DECLARE_STATIC_KEY_FALSE(text_sync_alone);

/* Even between batches' park rounds; odd while a park's fence is up. */
extern unsigned int text_sync_gen;

/* cpu's state: CT_KERNEL, CT_IDLE or CT_USER (a snapshot). */
static inline int text_sync_state(unsigned int cpu)
{
	return READ_ONCE(per_cpu(text_sync_cpu_state, cpu));
}

/*
 * The patcher's side (arch/x86/kernel/text_patch.c, text_mutex held,
 * preemption off). A plain round: text_sync_targets() moves the
 * generation and fills @cpus with the other online CPUs in the kernel,
 * the ones to interrupt, and returns how many (0: no IPI to send). A
 * parked round: text_sync_park_begin() raises the fence (an odd
 * generation: a CPU entering the kernel waits at it) and fills @cpus
 * likewise (the same count); the patcher sends them the park IPI
 * (text_sync_park_here()), waits for them with text_sync_park_wait(),
 * writes, and text_sync_park_end() lowers the fence and waits until
 * every parked CPU has left and every park IPI has run (an NMI may park
 * a CPU before the IPI gets in, see text_sync.c).
 */
unsigned int __text_sync_targets(struct cpumask *cpus);

static inline unsigned int text_sync_targets(struct cpumask *cpus)
{
	if (static_branch_unlikely(&text_sync_alone)) {
		cpus->bits[0] = 0;
		return 0;
	}
	return __text_sync_targets(cpus);
}
unsigned int text_sync_park_begin(struct cpumask *cpus);
/* A kernel TLB shootdown's targets: the other CPUs in the kernel. */
extern unsigned int text_sync_tlb_gen;
unsigned int text_sync_tlb_targets(struct cpumask *cpus);
void text_sync_park_wait(const struct cpumask *cpus);
void text_sync_park_end(const struct cpumask *cpus);
/* In the park IPI: parks this CPU if it is expected and not parked yet. */
void text_sync_park_here(void);

/* The serializing entries, the skipped CPUs: counts since boot. */
struct text_sync_stats {
	unsigned long entry_syncs; /* entries that found the generation moved */
	unsigned long fence_waits; /* entries that waited at a park's fence */
	unsigned long skipped; /* CPUs a round did not interrupt */
	unsigned long tlb_deferred; /* CPUs a TLB shootdown did not interrupt */
	unsigned long tlb_flushes; /* entries that flushed for them */
};
struct text_sync_stats text_sync_get_stats(void);

/* The C halves of the entry code (text_sync.c): no patchable site. */
void __text_sync_enter(void);
void __text_sync_nmi_enter(void);

#endif /* __ASSEMBLY__ */
#endif /* _ASM_X86_TEXT_SYNC_H */
