/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_JUMP_LABEL_ARCH_H
#define _LINUX_JUMP_LABEL_ARCH_H

/*
 * What an architecture supplies for jump labels, and the one apply hook
 * of the text batch (<linux/text_batch.h>), which static calls share
 * (<linux/static_call_arch.h> has their encoders). Written in the manner
 * of Zephyr's arch_interface.h: for each hook, whether it is required or
 * optional (then with a __weak default), what the caller guarantees and
 * what the hook guarantees on return.
 *
 * <asm/jump_label.h> must define struct jump_entry ({s32 code, target,
 * key}, 12 bytes), arch_static_branch() and arch_static_branch_jump();
 * generic code includes no other arch header for jump labels.
 *
 * Locks. The encoders and checks below only read text: they are called
 * with jump_label_mutex held (or, for a new module, module_mutex), from
 * a context that may sleep. The queue and the apply hook change text:
 * they are called from the text batch only, which holds the CPU hotplug
 * lock (for reading, or for writing in a hotplug callback) and text_mutex
 * across the whole batch, so that the check of a site's old bytes and
 * its write are under one hold of text_mutex and no CPU comes or goes
 * in between.
 */
#include <linux/types.h>
#include <linux/jump_label_table.h>

struct jump_entry;

/*
 * Required. Returns the length in bytes of the instruction at @entry's
 * site (2 or 5 on x86), read from the site. Only meaningful while no
 * batch writes the site.
 */
int arch_jump_entry_size(struct jump_entry *entry);

/*
 * Optional (__weak default: false). Returns true if @entry's site is the
 * arch's short form (a 2-byte jmp8 or NOP on x86), for the statistics.
 */
bool arch_jump_entry_is_short(struct jump_entry *entry);

/*
 * Required. Returns true if @entry's site holds exactly the instruction of
 * @type for its length and target. The module loader's check of a new
 * module's sites; reads text only.
 */
bool arch_jump_label_site_holds(struct jump_entry *entry,
				enum jump_label_type type);

/*
 * Required. Returns 0 if @entry's site holds the instruction of @type;
 * otherwise prints the site (%pS), its key (%pS), the expected and the
 * found bytes, and returns -EINVAL. Reads text only: a refusal by the
 * caller leaves nothing written.
 */
int arch_jump_label_check_site(struct jump_entry *entry,
			       enum jump_label_type type);

/*
 * Required. Adds the change of @entry's site to @type to the batch in
 * progress; called by text_batch_queue_jump() only. The site must hold
 * the instruction of the other type: if it does not, the hook prints the
 * diagnostic of arch_jump_label_check_site() and panics (writing over
 * bytes we did not put there would corrupt kernel text). The queue has no
 * capacity the caller must honour: the arch grows it, or when memory runs
 * out applies what it holds as a batch of its own and goes on. Nothing
 * queued is guaranteed to be written before arch_text_batch_apply().
 *
 * Called with the hotplug lock and text_mutex held, and jump_label_mutex
 * (the key's state cannot change under the queue).
 */
void arch_jump_label_transform_queue(struct jump_entry *entry,
				     enum jump_label_type type);

/* The two ways an apply writes (text_batch_apply(), text_batch_apply_nx()). */
enum text_batch_mode {
	TEXT_BATCH_LIVE,	/* CPUs may be running the text */
	TEXT_BATCH_NOT_LIVE,	/* no CPU can fetch the text yet */
};

/*
 * Required: the text batch's one apply hook, for jump-label and static
 * call sites alike. Writes every change queued since the last apply
 * (arch_jump_label_transform_queue(), arch_static_call_queue()) and
 * empties the queue.
 *
 * TEXT_BATCH_LIVE: other CPUs may be executing the sites. On return every
 * queued site holds its new instruction on every CPU, and no CPU executes
 * an old one again (on x86: the int3 batch, three sync rounds; a CPU that
 * runs a site meanwhile executes the old or the new instruction, never a
 * mix).
 *
 * TEXT_BATCH_NOT_LIVE: the caller guarantees that no CPU can have fetched
 * any queued site (its text is mapped non-executable, and made executable
 * only after this returns, with the ordering of a page table change). The
 * arch may write the sites in one pass, without serializing other CPUs;
 * a site it finds executable after all is written as TEXT_BATCH_LIVE
 * would.
 *
 * Called with the hotplug lock and text_mutex held, from a context that
 * may sleep (the live protocol waits for other CPUs).
 */
void arch_text_batch_apply(enum text_batch_mode mode);

#endif /* _LINUX_JUMP_LABEL_ARCH_H */
