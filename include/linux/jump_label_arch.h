/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_JUMP_LABEL_ARCH_H
#define _LINUX_JUMP_LABEL_ARCH_H

/*
 * What an architecture supplies to kernel/jump_label/core.c, and under which
 * conditions the generic code calls it. Generic code includes no other arch
 * header for jump labels than <asm/jump_label.h>, which must define
 * struct jump_entry ({s32 code, target, key}), arch_static_branch() and
 * arch_static_branch_jump().
 *
 * Every hook below is called with jump_label_mutex held (jump_label_lock())
 * and the CPU hotplug lock held for reading (cpus_read_lock()), from a
 * context that may sleep, never from an interrupt. The queue and the apply
 * of a batch run with text_mutex (<linux/memory.h>) held as well: the
 * generic code takes it once around the whole batch, so the check of a
 * site's old bytes and its write are under one hold.
 */
#include <linux/jump_label_table.h>

/*
 * Required. The length in bytes of the instruction at the entry's site
 * (2 or 5 on x86). Only meaningful while no patch of the site is in flight.
 */
int arch_jump_entry_size(struct jump_entry *entry);

/*
 * Optional (__weak default: false). True if the site is the arch's short
 * form (a 2-byte jmp8 or NOP on x86), for the statistics.
 */
bool arch_jump_entry_is_short(struct jump_entry *entry);

/*
 * Required. True if the site holds exactly the instruction of @type for
 * its length and target (the module loader's check of a new module).
 */
bool arch_jump_label_site_holds(struct jump_entry *entry,
				enum jump_label_type type);

/*
 * Required. The same check with a message: returns 0, or -EINVAL after
 * printing the site (%pS), the key (%pS), the expected and the found bytes.
 */
int arch_jump_label_check_site(struct jump_entry *entry,
			       enum jump_label_type type);

/*
 * Required. Adds the change of the site to @type to the batch in progress.
 * The site must hold the instruction of the opposite type; if not the arch
 * refuses and panics with the diagnostic above (patching a site whose bytes
 * we do not know would corrupt kernel text). The batch has no capacity the
 * caller must honour: the arch grows it, or when memory runs out applies
 * what is queued and goes on. Nothing queued is guaranteed to be written
 * before arch_jump_label_transform_apply().
 */
void arch_jump_label_transform_queue(struct jump_entry *entry,
				     enum jump_label_type type);

/*
 * Required. Writes every queued change. On return every queued site holds
 * its new instruction on every CPU, and no CPU will execute an old one
 * again.
 */
void arch_jump_label_transform_apply(void);

#endif /* _LINUX_JUMP_LABEL_ARCH_H */
