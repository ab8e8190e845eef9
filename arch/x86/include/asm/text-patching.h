/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_TEXT_PATCHING_H
#define _ASM_X86_TEXT_PATCHING_H

#include <linux/types.h>

#define INT3_INSN_OPCODE 0xcc
#define JMP8_INSN_OPCODE 0xeb
#define JMP32_INSN_OPCODE 0xe9
#define JMP8_INSN_SIZE 2
#define JMP32_INSN_SIZE 5
#define POKE_MAX_OPCODE_SIZE 5

/*
 * Writes len bytes of kernel text at addr through a temporary writable
 * alias of its page(s) (the text mapping itself stays read-only), then
 * serializes the CPU and reads the bytes back through the text mapping.
 * Any mismatch is a panic.
 */
void text_poke(void *addr, const void *opcode, size_t len);

/*
 * Batches: text_poke_queue() records a change, text_poke_finish() writes
 * all recorded changes with the int3 protocol (see text_patch.c), safely
 * for other CPUs executing them. The queue grows as needed; it has no size
 * limit. Callers serialize (jump_label_mutex) and may sleep.
 */
void text_poke_queue(void *addr, const void *opcode, size_t len);
void text_poke_finish(void);

/* One sync round: sync_core() on every online CPU, waiting for all. */
void text_poke_sync(void);

/* text_poke.batch=0 on the command line: one site per batch. */
extern bool text_poke_batching;

/* Counts since boot, for tests and benchmarks. */
struct text_poke_stats {
	unsigned long sites;		/* sites written through batches */
	unsigned long batches;		/* batches applied */
	unsigned long pokes;		/* text_poke() calls */
	unsigned long sync_rounds;	/* text_poke_sync() calls */
};

extern struct text_poke_stats text_poke_stats;
/* int3 traps the handler emulated, summed over per-CPU counters. */
unsigned long text_poke_int3_hits(void);

/* Tests only: called on the patching CPU after these protocol steps. */
enum text_poke_step {
	TEXT_POKE_INT3_WRITTEN,
	TEXT_POKE_TAILS_WRITTEN,
};
extern void (*text_poke_test_hook)(enum text_poke_step step);

#endif /* _ASM_X86_TEXT_PATCHING_H */
