/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_STATIC_CALL_ARCH_H
#define _LINUX_STATIC_CALL_ARCH_H

/*
 * What an architecture supplies for static calls (kernel/static_call/),
 * in the manner of <linux/jump_label_arch.h>: for each hook, whether it
 * is required or optional (then with a __weak default), what the caller
 * guarantees and what the hook guarantees on return. Writes go through
 * the text batch (<linux/text_batch.h>), whose apply hook,
 * arch_text_batch_apply(), is shared with jump labels.
 *
 * With CONFIG_STATIC_CALL, <asm/static_call.h> (included by
 * <linux/static_call.h>) must define ARCH_DEFINE_STATIC_CALL_TRAMP(name,
 * func), ARCH_DEFINE_STATIC_CALL_NULL_TRAMP(name) and
 * ARCH_DEFINE_STATIC_CALL_RET0_TRAMP(name): each a trampoline, 8-byte
 * aligned (bit 0 of a site's trampoline offset is the tail flag), and an
 * entry {s32 tramp, s32 key} in .static_call_tramp_key. Generic code
 * includes no other arch header for static calls.
 *
 * A site is one instruction of STATIC_CALL_INSN_SIZE bytes (defined by
 * <asm/static_call.h>, which this header includes): a call of the
 * target, or (a tail site, and every trampoline) a jump to it. For NULL
 * and __static_call_return0 the arch chooses what the site holds, as
 * long as the int3 emulation of its live protocol runs it whole.
 *
 * Locks. The checks only read text; the queue is called by
 * text_batch_queue_call() only. Both run with static_call_mutex held
 * (or, for a new module, module_mutex), from a context that may sleep;
 * the queue also with the hotplug lock and text_mutex, across the whole
 * batch, so that a site checked is the site written.
 */
#include <linux/types.h>
#include <linux/jump_label_arch.h>
#include <asm/static_call.h>

/*
 * Required. Writes into @insn the STATIC_CALL_INSN_SIZE bytes that @addr
 * must hold to call @func (@tail: to jump to it). Pure: reads no text.
 */
void arch_static_call_insn(u8 *insn, void *addr, void *func, bool tail);

/*
 * Optional (__weak default: true, for an arch whose sites reach every
 * address). Returns true if the instruction at @addr can reach @func
 * (NULL always can).
 */
bool arch_static_call_reaches(void *addr, void *func);

/*
 * Required. Returns 0 if @addr holds the instruction for @func (@tail as
 * above); otherwise prints the site (%pS), the call's @name, the found
 * and the expected bytes, and returns -EINVAL. Reads text only: a refusal
 * by the caller leaves nothing written.
 */
int arch_static_call_check_site(void *addr, void *func, bool tail,
				const char *name);

/*
 * Required. Adds the instruction for @func at @addr (@tail as above) to
 * the batch in progress, which never refuses it (see
 * arch_jump_label_transform_queue()); the caller has checked the site.
 * Nothing queued is guaranteed to be written before
 * arch_text_batch_apply(). Called with the hotplug lock, static_call_mutex
 * and text_mutex held.
 */
void arch_static_call_queue(void *addr, void *func, bool tail);

/*
 * Required with modules. The module loader finds a module's sites in its
 * relocations (kernel/static_call/module.c): @field is where a relocation
 * against a trampoline writes, @before bytes into a text section, with
 * @addend. Returns the site whose call or jump operand @field is, and
 * sets *@tail for a jump; or NULL if @field is no such operand. Reads the
 * module's text, not executable yet; called with module_mutex held.
 */
void *arch_static_call_reloc_site(u8 *field, size_t before, s64 addend,
				  bool *tail);

#endif /* _LINUX_STATIC_CALL_ARCH_H */
