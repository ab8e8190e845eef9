/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KERNEL_JUMP_LABEL_INTERNAL_H
#define _KERNEL_JUMP_LABEL_INTERNAL_H

/*
 * What the two halves of the engine share: kernel/jump_label.c (the key
 * state machine, the kernel's table, boot) and kernel/jump_label_module.c
 * (modules' tables and the links of their keys). Not an API: nothing else
 * includes it. Everything here runs under jump_label_mutex.
 */
#include <linux/jump_label_arch.h>
#include <linux/types.h>

struct module;

/* The kernel's key definitions (__static_keys), sorted at boot. */
extern struct static_key_def __start___static_keys[];
extern struct static_key_def __stop___static_keys[];

/* Set once the kernel's __ro_after_init keys are sealed. */
extern bool jump_label_ro_sealed;

/* What entry's site must hold for its key's state now. */
enum jump_label_type jump_label_type(struct jump_entry *entry);
/* True if the site is in init text freed by now (the kernel's or mod's). */
bool jump_entry_dead(struct jump_entry *entry, struct module *mod);
/* 1 if a live site of [start, stop) overlaps [tstart, tend] (inclusive). */
int jump_table_reserved(struct jump_entry *start, struct jump_entry *stop,
			struct module *mod, void *tstart, void *tend);

#ifdef CONFIG_MODULES
/* jump_table_reserved() over every loaded module's table. */
int jump_label_modules_reserved(void *start, void *end);
#else
static inline int jump_label_modules_reserved(void *start, void *end)
{
	return 0;
}
#endif

#endif /* _KERNEL_JUMP_LABEL_INTERNAL_H */
