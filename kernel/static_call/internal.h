/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KERNEL_STATIC_CALL_INTERNAL_H
#define _KERNEL_STATIC_CALL_INTERNAL_H

/*
 * What the static call core (kernel/static_call/core.c) and its module
 * part (kernel/static_call/module.c) share. Not an API: nothing else
 * includes it; the loader's hooks are in <linux/module.h>.
 */
#include <linux/mutex.h>
#include <linux/static_call_types.h>

struct module;

/* One site of a module: absolute (module text is far from kmalloc). */
struct static_call_msite {
	void *addr;
	void *tramp;			/* until linked: then key */
	struct static_call_key *key;
	bool tail;
	bool init;			/* in its init text */
};

/* A module's sites of one call, on the key's list. */
struct static_call_mod {
	struct static_call_mod *next;
	struct module *mod;
	struct static_call_msite *sites;
	unsigned int nr;
};

/* Serializes updates and the site lists (key->sites, key->mods). */
extern struct mutex static_call_mutex;

/* Under static_call_mutex: the record of known targets (core.c). */
void __static_call_note_key(struct static_call_key *key);
void __static_call_forget(unsigned long start, unsigned long size);

/* The key of trampoline tramp: the kernel's or a module's, or NULL. */
struct static_call_key *static_call_tramp_key(void *tramp);

#endif /* _KERNEL_STATIC_CALL_INTERNAL_H */
