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
 * all recorded changes. The queue grows as needed; it has no size limit.
 * Callers serialize (jump_label_mutex).
 */
void text_poke_queue(void *addr, const void *opcode, size_t len);
void text_poke_finish(void);

/* Counts since boot, for tests and benchmarks. */
struct text_poke_stats {
	unsigned long sites;	/* sites written through a batch */
	unsigned long batches;	/* non-empty batches applied */
	unsigned long pokes;	/* text_poke() calls */
};

extern struct text_poke_stats text_poke_stats;

#endif /* _ASM_X86_TEXT_PATCHING_H */
