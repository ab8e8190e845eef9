/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_JUMP_LABEL_INTROSPECT_H
#define _LINUX_JUMP_LABEL_INTROSPECT_H

/*
 * A read-only view of the static keys, for the console, benchmarks and
 * tests (kernel/jump_label/introspect.c): which keys have sites, in the
 * kernel and in loaded modules, each key's state and sites. Nothing here
 * changes a key; the jump table's layout stays behind it. With
 * CONFIG_JUMP_LABEL=n there is no table: no key has a site. The patch
 * engine's counters: text_poke_get_stats(), <linux/text-patching.h>.
 */
#include <linux/jump_label.h>
#include <linux/types.h>

struct module;

/* A key as the walk found it, under its locks. */
struct static_key_info {
	struct static_key *key;
	int count;			/* static_key_count(): -1 while enabling */
	bool enabled;
	bool default_true;		/* DEFINE_STATIC_KEY_TRUE() and the like */
	unsigned int sites;		/* live sites, the kernel's and modules' */
	unsigned int short_sites;	/* of which the arch's short form */
};

/* One live site of a key. */
struct static_key_site {
	unsigned long addr;		/* the instruction */
	unsigned long target;		/* where its jump goes */
	unsigned int size;		/* its length in bytes */
	bool likely;			/* static_branch_likely(): JMP when off */
	struct module *mod;		/* the module whose text holds it, or NULL */
};

/*
 * Calls fn once for every key that has a live site (sites in freed init
 * text do not count), the kernel's and every loaded module's, in address
 * order, with module_mutex and jump_label_mutex held: fn may take a
 * reference of the key's module (try_module_get()) but must not change a
 * key, load or unload a module, or call another function of this header.
 * Stops at fn's first non-zero value and returns it; 0 after the last key;
 * -ENOMEM if there is no memory for the walk.
 */
int static_key_for_each_key(int (*fn)(const struct static_key_info *info,
				      void *data),
			    void *data);

/* The key's state and sites now; takes jump_label_mutex. */
void static_key_get_info(struct static_key *key, struct static_key_info *info);

/*
 * Calls fn for every live site of key, the kernel's then each module's,
 * with jump_label_mutex held (the same rules for fn as above). A module's
 * key needs a reference of its module meanwhile. Stops at and returns fn's
 * first non-zero value.
 */
int static_key_for_each_key_site(struct static_key *key,
				 int (*fn)(const struct static_key_site *site,
					   void *data),
				 void *data);

#endif /* _LINUX_JUMP_LABEL_INTROSPECT_H */
