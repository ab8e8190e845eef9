/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KERNEL_JUMP_LABEL_INTERNAL_H
#define _KERNEL_JUMP_LABEL_INTERNAL_H

/*
 * What the parts of the engine share: kernel/jump_label/core.c (the key
 * state machine, the kernel's table, boot), module.c (modules' tables and
 * the links of their keys), ratelimit.c (deferred keys), introspect.c
 * (the read-only walk), queued.c (many keys and calls in one batch) and
 * batch.c (the text batch, <linux/text_batch.h>). Not an API: nothing
 * else includes it. The table helpers run under jump_label_mutex.
 */
#include <linux/init.h>
#include <linux/jump_label_arch.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <asm/module.h>

struct module;

/* Serializes every change of code, module links and key state. */
extern struct mutex jump_label_mutex;

/* The kernel's key definitions (__static_keys), sorted at boot. */
extern struct static_key_def __start___static_keys[];
extern struct static_key_def __stop___static_keys[];

/* Set once the kernel's __ro_after_init keys are sealed. */
extern bool jump_label_ro_sealed;

/*
 * Misuse of the API WARNs once per key and kind, naming the key, with
 * caller (the code that called the API) as the WARN's place.
 */
enum static_key_misuse {
	MISUSE_BEFORE_INIT,
	MISUSE_UNDERFLOW,
	MISUSE_MIXED,
	MISUSE_OVERFLOW,
	MISUSE_SEALED,
	MISUSE_CPUS_UNLOCKED,
	MISUSE_NEGATIVE,
};

void static_key_misuse(struct static_key *key, enum static_key_misuse kind,
		       unsigned long caller);
/* The checks past the common case; false if the key must not be touched. */
bool static_key_check_use_slow(struct static_key *key, unsigned long caller);

/*
 * The common case, checked inline on every inc and dec: after init, a key
 * in plain kernel data (no _RO key, no module's), which no check refuses.
 */
static __always_inline bool static_key_use_plain(struct static_key *key)
{
	unsigned long k = (unsigned long)key;

	return likely(static_key_initialized &&
		      (k < (unsigned long)__start_ro_after_init ||
		       k >= (unsigned long)__end_ro_after_init) &&
		      (!IS_ENABLED(CONFIG_MODULES) || !within_module_area(k)));
}

/* Common entry checks; false if the key must not be touched at all. */
static __always_inline bool static_key_check_use(struct static_key *key,
						 unsigned long caller)
{
	return static_key_use_plain(key) ||
	       static_key_check_use_slow(key, caller);
}

/* Returns what entry's site must hold for its key's state now. */
enum jump_label_type jump_label_type(struct jump_entry *entry);
/* True if the site is in init text freed by now (the kernel's or mod's). */
bool jump_entry_dead(struct jump_entry *entry, struct module *mod);
/* 1 if a live site of [start, stop) overlaps [tstart, tend] (inclusive). */
int jump_table_reserved(struct jump_entry *start, struct jump_entry *stop,
			struct module *mod, void *tstart, void *tend);

#ifdef CONFIG_JUMP_LABEL
struct text_batch;

/*
 * Queues into @b every live site of @key, the kernel's and modules', for
 * the key's state now; @b holds jump_label_mutex and text_mutex.
 */
void jump_label_queue_key(struct text_batch *b, struct static_key *key);

/*
 * The walk behind static_key_for_each_site() and every flip: the kernel's
 * entries of the key, then each linked module's. Always inlined, so that
 * the flip's callback is a direct call. jump_label_mutex held.
 */
static __always_inline int
__static_key_for_each_site(struct static_key *key,
			   int (*fn)(struct jump_entry *entry,
				     struct module *mod, void *data),
			   void *data)
{
	struct static_key_mod *m;
	struct jump_entry *entry;
	int ret;

	lockdep_assert_held(&jump_label_mutex);
	if (!static_key_linked(key)) {
		for_each_key_entry(key, entry)
			if (!jump_entry_dead(entry, NULL) &&
			    (ret = fn(entry, NULL, data)))
				return ret;
		return 0;
	}
	for (m = static_key_mods(key); m; m = m->next)
		for (entry = m->entries;
		     entry < m->stop && jump_entry_key(entry) == key; entry++)
			if (!jump_entry_dead(entry, m->mod) &&
			    (ret = fn(entry, m->mod, data)))
				return ret;
	return 0;
}
#endif

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
