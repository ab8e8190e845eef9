/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_TEXT_PATCHING_H
#define _ASM_X86_TEXT_PATCHING_H

#include <linux/init.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <asm/jump_label_insn.h>

/* The longest instruction a batch entry can hold. */
#define POKE_MAX_OPCODE_SIZE 5

/*
 * Serializes every write of kernel text (the alias mapping is one per
 * system). Every function below must be called with it held, and asserts
 * so with lockdep_assert_held().
 */
extern struct mutex text_mutex;

/*
 * Writes len (<= PAGE_SIZE) bytes of kernel text at addr through a
 * temporary writable alias of its page(s) (the text mapping itself stays
 * read-only), serializes this CPU and reads the bytes back through the text
 * mapping: any mismatch is a panic. For text no other CPU is running.
 */
void text_poke(void *addr, const void *opcode, size_t len);

/*
 * Batches: text_poke_queue() records a change of at most
 * POKE_MAX_OPCODE_SIZE bytes, text_poke_finish() writes all recorded
 * changes with the int3 protocol (see text_patch.c), safely for other CPUs
 * executing them. The queue never refuses a change: it grows, and when
 * memory runs out it applies what it holds and starts over. May sleep.
 */
void text_poke_queue(void *addr, const void *opcode, size_t len);
void text_poke_finish(void);

/* Registers the int3 handler of the batches; once, during boot. */
void __init text_poke_init(void);

/* CPU hotplug states (<linux/cpuhotplug.h>): a CPU's batch reference. */
int text_poke_prepare_cpu(unsigned int cpu);
int text_poke_dead_cpu(unsigned int cpu);

#endif /* _ASM_X86_TEXT_PATCHING_H */
