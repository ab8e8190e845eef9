/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KERNEL_STATIC_CALL_INTERNAL_H
#define _KERNEL_STATIC_CALL_INTERNAL_H

/*
 * Between the static call core (kernel/static_call/core.c), its module part
 * (kernel/static_call/module.c) and the module loader.
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

/* Under static_call_mutex: the record of known targets (static_call.c). */
void __static_call_note_key(struct static_call_key *key);
void __static_call_forget(unsigned long start, unsigned long size);

/* The key of trampoline tramp: the kernel's or a module's, or NULL. */
struct static_call_key *static_call_tramp_key(void *tramp);

/*
 * The module loader's steps (kernel/module/main.c): at step 6 the sites
 * are found in the relocations and checked (0 or -ENOEXEC after a line);
 * at step 8, under module_mutex, static_call_mutex and text_mutex, add
 * resolves, checks and links them to their keys (0 or -errno after a
 * line, nothing left behind) and queue queues each site's instruction in
 * the loader's one write of its text sites (kernel/module/text_sites.c);
 * unlink undoes add; before the init text is freed its sites go; after
 * exit or a failed init, all go.
 */
struct load_info;
int static_call_module_find(struct load_info *info, struct module *mod);
int __static_call_module_add(struct module *mod);
void __static_call_module_queue(struct module *mod);
void __static_call_module_unlink(struct module *mod);
void static_call_module_init_done(struct module *mod);
void static_call_module_del(struct module *mod);
/* Frees what find() allocated (also when add() was never reached). */
void static_call_module_free(struct module *mod);

#endif /* _KERNEL_STATIC_CALL_INTERNAL_H */
