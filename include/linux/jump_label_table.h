/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_JUMP_LABEL_TABLE_H
#define _LINUX_JUMP_LABEL_TABLE_H

/*
 * The jump table as its owners see it: kernel/jump_label/core.c, the arch code
 * behind <linux/jump_label_arch.h>, and the tests and benchmarks. Users of
 * static keys include <linux/jump_label.h> only.
 *
 * An entry (struct jump_entry, <asm/jump_label.h>) holds three s32 offsets,
 * each relative to its own field: the site, the target of its JMP and the
 * key. Keys are at least 4-aligned, so the key offset carries two flags in
 * its low bits. The accessors below are the only code that knows this.
 */
#include <linux/jump_label.h>

#ifdef CONFIG_JUMP_LABEL
#include <asm/jump_label.h>

#define JUMP_ENTRY_BRANCH 1 /* static_branch_likely(): JMP when disabled */
#define JUMP_ENTRY_INIT 2 /* the site is in init text (set at boot) */
#define JUMP_ENTRY_FLAGS (JUMP_ENTRY_BRANCH | JUMP_ENTRY_INIT)

static inline unsigned long jump_entry_code(const struct jump_entry *entry)
{
	return (unsigned long)&entry->code + entry->code;
}

static inline unsigned long jump_entry_target(const struct jump_entry *entry)
{
	return (unsigned long)&entry->target + entry->target;
}

static inline struct static_key *jump_entry_key(const struct jump_entry *entry)
{
	long offset = entry->key & ~(long)JUMP_ENTRY_FLAGS;

	return (struct static_key *)((unsigned long)&entry->key + offset);
}

static inline bool jump_entry_is_branch(const struct jump_entry *entry)
{
	return entry->key & JUMP_ENTRY_BRANCH;
}

static inline bool jump_entry_is_init(const struct jump_entry *entry)
{
	return entry->key & JUMP_ENTRY_INIT;
}

/* The key offset's flag bits: JUMP_ENTRY_BRANCH and JUMP_ENTRY_INIT. */
static inline unsigned int jump_entry_flags(const struct jump_entry *entry)
{
	return entry->key & JUMP_ENTRY_FLAGS;
}

static inline void jump_entry_set_init(struct jump_entry *entry, bool set)
{
	if (set)
		entry->key |= JUMP_ENTRY_INIT;
	else
		entry->key &= ~JUMP_ENTRY_INIT;
}

/*
 * Points @entry, wherever it lies, at the site @code, its JMP's @target and
 * @key, with @flags (JUMP_ENTRY_*): the one writer of the encoding, for the
 * sort (which moves entries) and the tests (which build tables).
 */
static inline void jump_entry_set(struct jump_entry *entry, unsigned long code,
				  unsigned long target, struct static_key *key,
				  unsigned int flags)
{
	entry->code = (long)code - (long)&entry->code;
	entry->target = (long)target - (long)&entry->target;
	entry->key = ((long)key - (long)&entry->key) | flags;
}

/*
 * The table's order, stated once for the kernel: by key address, then by
 * site address, both unsigned. Returns <0, 0 or >0 as the entry of (@key_a,
 * @code_a) sorts before, with or after that of (@key_b, @code_b).
 * scripts/jump_label_fixup.c, the host's one statement of it, leaves the
 * image's table in this order; boot and module loads check it.
 */
static __always_inline int jump_entry_order(unsigned long key_a,
					    unsigned long code_a,
					    unsigned long key_b,
					    unsigned long code_b)
{
	if (key_a != key_b)
		return key_a < key_b ? -1 : 1;
	return code_a < code_b ? -1 : code_a > code_b;
}

/* jump_entry_order() of two entries. */
static __always_inline int jump_entry_cmp(const struct jump_entry *a,
					  const struct jump_entry *b)
{
	return jump_entry_order((unsigned long)jump_entry_key(a),
				jump_entry_code(a),
				(unsigned long)jump_entry_key(b),
				jump_entry_code(b));
}

/* In jump_entry_cmp()'s order in the image (scripts/jump_label_fixup). */
extern struct jump_entry __start___jump_table[];
extern struct jump_entry __stop___jump_table[];

struct module;

/*
 * A key with sites in a module's table is JUMP_TYPE_LINKED: its pointer
 * is then a chain of these, one per table that holds sites of the key.
 * The kernel's own entries, if any, come first (mod NULL). Changed only
 * under jump_label_mutex, by module load and unload.
 */
struct static_key_mod {
	struct static_key_mod *next;
	struct jump_entry *entries; /* the key's first entry in the table */
	struct jump_entry *stop; /* the table's end */
	struct module *mod; /* NULL: the kernel's table */
};

static inline bool static_key_linked(struct static_key *key)
{
	return key->type & JUMP_TYPE_LINKED;
}

static inline struct static_key_mod *static_key_mods(struct static_key *key)
{
	return (struct static_key_mod *)(key->type & ~JUMP_TYPE_MASK);
}

/*
 * The key's first entry in the kernel's sorted table, NULL before init or
 * if it has no site in the kernel (modules' sites: static_key_mods()).
 */
static inline struct jump_entry *static_key_entries(struct static_key *key)
{
	struct static_key_mod *m;

	if (!static_key_linked(key))
		return (struct jump_entry *)(key->type & ~JUMP_TYPE_MASK);
	m = static_key_mods(key);
	return m && !m->mod ? m->entries : NULL;
}

/*
 * Walks the entries of @key in the kernel's table, where they are
 * contiguous. static_key_for_each_site() walks modules' too.
 */
#define for_each_key_entry(key, entry)                   \
	for ((entry) = static_key_entries(key);          \
	     (entry) && (entry) < __stop___jump_table && \
	     jump_entry_key(entry) == (key);             \
	     (entry)++)

/*
 * In a table sorted by key, the first entry past entry whose key differs:
 * the next key's first entry, or stop. The one loop that finds it.
 */
static inline struct jump_entry *jump_entry_next_key(struct jump_entry *entry,
						     struct jump_entry *stop)
{
	struct static_key *key = jump_entry_key(entry);

	while (++entry < stop && jump_entry_key(entry) == key)
		;
	return entry;
}

/*
 * Walks the keys of the sorted table [start, stop): first is each key's
 * first entry, next the next key's (the key's entries are [first, next)).
 */
#define for_each_jump_key(first, next, start, stop)                 \
	for ((first) = (start);                                     \
	     (first) < (stop) &&                                    \
	     ((next) = jump_entry_next_key((first), (stop)), true); \
	     (first) = (next))

/*
 * Sorts [start, stop) by jump_entry_cmp() unless it already is; returns
 * true if it had to sort. Module loads call it on their tables, tests on
 * their own; boot checks the kernel's in jump_label_init()'s one pass.
 */
bool jump_label_sort_entries(struct jump_entry *start, struct jump_entry *stop);

/*
 * Calls fn for every site of key, in the kernel and in modules (mod NULL
 * for the kernel's), with jump_label_mutex held; sites in freed init text
 * are left out. Stops at and returns fn's first non-zero value.
 */
int static_key_for_each_site(struct static_key *key,
			     int (*fn)(struct jump_entry *entry,
				       struct module *mod, void *data),
			     void *data);

#endif /* CONFIG_JUMP_LABEL */

/* Filled in by jump_label_init(), for tests and benchmarks. */
struct jump_label_stats {
	unsigned int entries;
	unsigned int keys;
	unsigned int short_sites;
	unsigned int changed_keys; /* changed before init: patched at init */
	bool sorted_at_boot; /* the image's table was out of order */
	u64 init_cycles; /* jump_label_init()'s own cost, in cycles */
	/* Modules: tables added, entries in them, links to keys outside. */
	unsigned int modules;
	unsigned int module_entries;
	unsigned int module_links;
	u64 module_add_cycles; /* the last module_set_text_sites(), cycles */
};

extern struct jump_label_stats jump_label_stats;

#endif /* _LINUX_JUMP_LABEL_TABLE_H */
