// SPDX-License-Identifier: GPL-2.0
/*
 * Static keys in modules: the other half of kernel/jump_label/core.c (built
 * with CONFIG_JUMP_LABEL and CONFIG_MODULES).
 */
#include <linux/kernel.h>
#include <linux/cpu.h>
#include <linux/jump_label_arch.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/text_batch.h>
#include <asm/module.h>
#include "internal.h"

/*
 * Modules. A module's table is sorted and checked at load, and each of its
 * keys gets a link (struct static_key_mod) to the module's entries: every
 * key with sites in a module is JUMP_TYPE_LINKED, whether the key lives in
 * the kernel, in the module itself or in another module (which the user
 * pins through its symbol). Loads and unloads take module_mutex, then the
 * hotplug lock, then jump_label_mutex (<linux/module.h>).
 */
struct jump_label_module {
	struct list_head list;
	struct module *mod;
};

/* The modules with a jump table, for jump_label_text_reserved(). */
static LIST_HEAD(jump_label_modules);

int jump_label_modules_reserved(void *start, void *end)
{
	struct jump_label_module *jm;
	struct module *mod;

	list_for_each_entry(jm, &jump_label_modules, list) {
		mod = jm->mod;
		if (jump_table_reserved(mod->jump_entries,
					mod->jump_entries + mod->num_jump_entries,
					mod, start, end))
			return 1;
	}
	return 0;
}

/*
 * A key must be a struct static_key in writable data: the kernel's (its
 * ro_after_init, data and bss), the module's own, or another loaded
 * module's. Called with module_mutex held, so the module list holds still.
 * *owner: the module holding it, NULL for the kernel.
 */
static bool jump_label_key_plausible(struct module *mod, struct static_key *key,
				     struct module **owner)
{
	unsigned long k = (unsigned long)key, len = sizeof(*key);

	*owner = NULL;
	if (k % __alignof__(struct static_key))
		return false;
	if ((k >= (unsigned long)_sdata && k + len <= (unsigned long)_edata) ||
	    (k >= (unsigned long)__bss_start &&
	     k + len <= (unsigned long)__bss_stop))
		return true;
	*owner = mod;
	if (within_module_data(k, len, mod))
		return true;
	*owner = __module_address(k);
	return *owner && *owner != mod && within_module_data(k, len, *owner);
}

/* The def of the n sorted (by address) or unsorted defs listing key k. */
static const struct static_key_def *
static_key_def_find(const struct static_key_def *defs, unsigned int n,
		    unsigned long k, bool sorted)
{
	const unsigned long sz = sizeof(struct static_key);
	unsigned int lo = 0, hi = n, i;
	unsigned long base;

	while (lo < hi) {
		i = sorted ? lo + (hi - lo) / 2 : lo;
		base = (unsigned long)defs[i].key;
		if (k >= base && k - base < defs[i].count * sz)
			return (k - base) % sz ? NULL : &defs[i];
		if (sorted && k < base)
			hi = i;
		else
			lo = i + 1;
	}
	return NULL;
}

/* True if a kernel jump entry names key: the table is sorted by key. */
static bool jump_label_kernel_key(unsigned long k)
{
	struct jump_entry *start = __start___jump_table;
	unsigned long lo = 0, hi = __stop___jump_table - start, i, ik;

	while (lo < hi) {
		i = lo + (hi - lo) / 2;
		ik = (unsigned long)jump_entry_key(start + i);
		if (ik == k)
			return true;
		if (k < ik)
			hi = i;
		else
			lo = i + 1;
	}
	return false;
}

/* True if one of the n exported symbols of syms is at address k. */
static bool ksyms_have(const struct kernel_symbol *syms, unsigned int n,
		       unsigned long k)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (syms[i].value == k)
			return true;
	return false;
}

/*
 * An old-API key (a struct static_key set by the old initializer: no
 * DEFINE_ macro, so not in __static_keys) exported by its owner, the
 * kernel (NULL) or another module: Linux's own selftest names such keys of
 * another module. An export is the start of a symbol the owner chose to
 * share, so an address inside a key or beside a function pointer is never
 * one.
 */
static bool jump_label_exported_key(struct module *owner, unsigned long k)
{
	if (!owner)
		return ksyms_have(__start___ksymtab,
				  __stop___ksymtab - __start___ksymtab, k) ||
		       ksyms_have(__start___ksymtab_gpl,
				  __stop___ksymtab_gpl - __start___ksymtab_gpl,
				  k);
	return ksyms_have(owner->syms, owner->num_syms, k) ||
	       ksyms_have(owner->gpl_syms, owner->num_gpl_syms, k);
}

/*
 * A key of mod's own from the old API's initializer (no DEFINE_ macro,
 * so not in __static_keys): at a key's step from the start of one of its
 * symbols, as an initializer left it (count 0 or 1, the type bit alike,
 * nothing linked). Only the module's own data is taken on these grounds:
 * a mistake misleads it alone.
 */
static bool jump_label_module_old_key(struct static_key *key)
{
	unsigned long size, offset, type = READ_ONCE(key->type);
	int v = atomic_read(&key->enabled);
	const char *modname;

	if (!module_kallsyms_lookup((unsigned long)key, &size, &offset,
				    &modname))
		return false;
	return !(offset % sizeof(*key)) && offset + sizeof(*key) <= size &&
	       (v == 0 || v == 1) && type == (unsigned long)v && !key->by_inc;
}

/*
 * A plausible key is a real one if its owner defined it as a key: the
 * kernel's __static_keys (or a key of the kernel's own sites, which may
 * come from the old API's initializers), or the module's (or an old-API
 * key of mod's own), or an old-API key its owner exports.
 */
static bool jump_label_key_defined(struct module *mod, struct static_key *key,
				   struct module *owner)
{
	unsigned long k = (unsigned long)key;

	if (owner)
		return static_key_def_find(owner->static_keys,
					   owner->num_static_keys, k, false) ||
		       (owner == mod && jump_label_module_old_key(key)) ||
		       (owner != mod && jump_label_exported_key(owner, k));
	return static_key_def_find(__start___static_keys,
				   __stop___static_keys - __start___static_keys,
				   k, true) ||
	       jump_label_kernel_key(k) || jump_label_exported_key(NULL, k);
}

/*
 * A key in __ro_after_init data of another owner (a kernel _RO key, or a
 * module's) cannot take a link once sealed: linking writes the key. It
 * cannot change any more either, so its sites are set once, at load, and
 * need no link ("frozen"). Before the seal it could still change and be
 * sealed under a link that unload would then have to write: refused.
 */
enum key_link { KEY_LINK, KEY_FROZEN, KEY_NOT_YET_SEALED };

static enum key_link jump_label_key_link(struct module *mod,
					 struct static_key *key)
{
	unsigned long k = (unsigned long)key;
	struct module *owner;

	if (k >= (unsigned long)__start_ro_after_init &&
	    k < (unsigned long)__end_ro_after_init)
		return jump_label_ro_sealed ? KEY_FROZEN : KEY_NOT_YET_SEALED;
	owner = __module_address(k);
	if (!owner || owner == mod ||
	    !within_module_mem_type(k, owner, MOD_RO_AFTER_INIT))
		return KEY_LINK;
	return owner->jump_init_done ? KEY_FROZEN : KEY_NOT_YET_SEALED;
}

/* One entry's check: 0, or -errno after a line naming the module and why. */
static int jump_label_module_check(struct module *mod, struct jump_entry *entry,
				   unsigned int i)
{
	unsigned long code = jump_entry_code(entry);
	unsigned long target = jump_entry_target(entry);
	struct static_key *key = jump_entry_key(entry);
	struct module *owner;
	int size;

	if (module_text_region(mod, code, 1) == MOD_MEM_NUM_TYPES) {
		pr_err("module %s: jump entry %u: site %p is outside the module's text\n",
		       mod->name, i, (void *)code);
		return -EINVAL;
	}
	size = arch_jump_entry_size(entry);
	if (module_text_region(mod, code, size) == MOD_MEM_NUM_TYPES ||
	    module_text_region(mod, target, 1) == MOD_MEM_NUM_TYPES) {
		pr_err("module %s: jump entry %u: site %pS (%d bytes) or its target %p is outside the module's text\n",
		       mod->name, i, (void *)code, size, (void *)target);
		return -EINVAL;
	}
	if (!jump_label_key_plausible(mod, key, &owner)) {
		pr_err("module %s: jump entry %u: key %p of site %pS is not in kernel or module data\n",
		       mod->name, i, key, (void *)code);
		return -EINVAL;
	}
	if (!jump_label_key_defined(mod, key, owner)) {
		pr_err("module %s: jump entry %u: key %p (%pS) of site %pS is not the start of a static key of %s%s\n",
		       mod->name, i, key, key, (void *)code,
		       owner ? "module " : "the kernel",
		       owner ? owner->name : "");
		return -EINVAL;
	}
	if (jump_label_key_link(mod, key) == KEY_NOT_YET_SEALED) {
		pr_err("module %s: jump entry %u: key %pS is read-only after its owner's init, which has not ended: load the module after it\n",
		       mod->name, i, key);
		return -EBUSY;
	}
	/* Sites leave the assembler as "jmp target" (<asm/jump_label.h>). */
	if (!arch_jump_label_site_holds(entry, JUMP_LABEL_JMP)) {
		pr_err("module %s: jump entry %u: site %pS holds %*ph, not the jmp to %pS the assembler emits\n",
		       mod->name, i, (void *)code, size, (void *)code,
		       (void *)target);
		return -EINVAL;
	}
	return 0;
}

struct jump_site {
	unsigned long code;
	unsigned int entry;
};

static int jump_site_cmp(const void *a, const void *b)
{
	const struct jump_site *sa = a, *sb = b;

	if (sa->code != sb->code)
		return sa->code < sb->code ? -1 : 1;
	return 0;
}

/*
 * No two entries may share (or overlap) a site: a flip of one key would
 * find the other's bytes there. The sites sorted by address, one pass.
 * 0, or -EINVAL/-ENOMEM after a line naming both entries.
 */
static int jump_label_module_check_sites(struct module *mod)
{
	unsigned int i, n = mod->num_jump_entries;
	struct jump_entry *e = mod->jump_entries;
	struct jump_site *sites;
	int ret = 0;

	sites = kmalloc(n * sizeof(*sites), GFP_KERNEL);
	if (!sites) {
		pr_err("module %s: jump_label: out of memory checking its sites\n",
		       mod->name);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		sites[i].code = jump_entry_code(e + i);
		sites[i].entry = i;
	}
	if (!is_sorted(sites, n, sizeof(*sites), jump_site_cmp))
		sort(sites, n, sizeof(*sites), jump_site_cmp, NULL);
	for (i = 1; i < n && !ret; i++) {
		struct jump_entry *prev = e + sites[i - 1].entry;

		if (sites[i - 1].code + arch_jump_entry_size(prev) <=
		    sites[i].code)
			continue;
		pr_err("module %s: jump entries %u and %u: site %pS (key %pS) overlaps site %pS (key %pS)\n",
		       mod->name, sites[i - 1].entry, sites[i].entry,
		       (void *)sites[i - 1].code, jump_entry_key(prev),
		       (void *)sites[i].code,
		       jump_entry_key(e + sites[i].entry));
		ret = -EINVAL;
	}
	kfree(sites);
	return ret;
}

/* Makes key LINKED if it is not, keeping its kernel entries first. */
static int static_key_make_linked(struct static_key *key)
{
	struct static_key_mod *kernel;
	struct jump_entry *entries;

	if (static_key_linked(key))
		return 0;
	entries = static_key_entries(key);
	if (!entries) {
		key->type = (key->type & JUMP_TYPE_TRUE) | JUMP_TYPE_LINKED;
		return 0;
	}
	kernel = kzalloc(sizeof(*kernel), GFP_KERNEL);
	if (!kernel)
		return -ENOMEM;
	kernel->entries = entries;
	kernel->stop = __stop___jump_table;
	key->type = (unsigned long)kernel | (key->type & JUMP_TYPE_TRUE) |
		    JUMP_TYPE_LINKED;
	return 0;
}

/*
 * Removes mod's link from key, then puts a key left with its kernel
 * entries only (or no sites at all) back in the plain form. A key still
 * plain (static_key_make_linked() ran out of memory) has no link to
 * remove: its type holds its kernel entries, not a chain.
 */
static void static_key_unlink(struct static_key *key, struct module *mod)
{
	unsigned long flags = key->type & JUMP_TYPE_TRUE;
	struct static_key_mod *m, *prev = NULL, *first;

	if (!static_key_linked(key))
		return;
	for (m = static_key_mods(key); m && m->mod != mod; m = m->next)
		prev = m;
	if (m && prev)
		prev->next = m->next;
	else if (m)
		key->type = (unsigned long)m->next | flags | JUMP_TYPE_LINKED;
	kfree(m);
	first = static_key_mods(key);
	if (!first) {
		key->type = flags;
	} else if (!first->mod && !first->next) {
		key->type = (unsigned long)first->entries | flags;
		kfree(first);
	}
}

/* Appends a link to mod's entries of key, starting at entries. */
static int static_key_link(struct static_key *key, struct module *mod,
			   struct jump_entry *entries)
{
	struct static_key_mod *link, **pm;
	int ret;

	ret = static_key_make_linked(key);
	if (ret)
		return ret;
	link = kzalloc(sizeof(*link), GFP_KERNEL);
	if (!link)
		return -ENOMEM;
	link->entries = entries;
	link->stop = mod->jump_entries + mod->num_jump_entries;
	link->mod = mod;
	if (!static_key_mods(key)) {
		key->type |= (unsigned long)link;
		return 0;
	}
	for (pm = &static_key_mods(key)->next; *pm; pm = &(*pm)->next)
		;
	*pm = link;
	return 0;
}

/* Frees the chain of a key of mod's own, which goes away with mod. */
static void static_key_free_links(struct static_key *key)
{
	struct static_key_mod *m = static_key_mods(key), *next;

	for (; m; m = next) {
		next = m->next;
		kfree(m);
	}
}

/*
 * Unlinks mod from the keys of its entries before stop. Its own keys are
 * not written (they may be read-only by now, and go away with it): only
 * their links are freed.
 */
static void jump_label_module_unlink(struct module *mod, struct jump_entry *stop)
{
	struct jump_entry *first, *next;
	struct static_key *key;

	for_each_jump_key(first, next, mod->jump_entries, stop) {
		key = jump_entry_key(first);
		if (within_module_data((unsigned long)key, sizeof(*key), mod))
			static_key_free_links(key);
		else if (jump_label_key_link(mod, key) == KEY_LINK)
			static_key_unlink(key, mod);
	}
}

/*
 * Links mod's sorted entries to their keys and marks the ones in init
 * text. Undoes its links on failure.
 */
static int jump_label_module_link(struct module *mod)
{
	struct jump_entry *start = mod->jump_entries;
	struct jump_entry *stop = start + mod->num_jump_entries;
	struct jump_entry *first, *next, *iter;
	struct static_key *key;
	unsigned int links = 0;
	int ret;

	for_each_jump_key(first, next, start, stop) {
		key = jump_entry_key(first);
		for (iter = first; iter < next; iter++)
			jump_entry_set_init(
				iter,
				within_module_init(jump_entry_code(iter), mod));
		if (jump_label_key_link(mod, key) == KEY_FROZEN)
			continue;
		ret = static_key_link(key, mod, first);
		if (ret) {
			static_key_unlink(key, mod);
			jump_label_module_unlink(mod, first);
			return ret;
		}
		links += !within_module_data((unsigned long)key, sizeof(*key),
					     mod);
	}
	jump_label_stats.module_links += links;
	return 0;
}

/* Every site holds the JMP: queues into @b those whose key wants a NOP. */
static void jump_label_module_queue(struct text_batch *b, struct module *mod)
{
	struct jump_entry *iter;

	if (unlikely(!text_batch_may_queue(b))) {
		text_batch_refuse(b, TEXT_BATCH_OP_QUEUE);
		return;
	}
	for (iter = mod->jump_entries;
	     iter < mod->jump_entries + mod->num_jump_entries; iter++)
		if (jump_label_type(iter) == JUMP_LABEL_NOP)
			__text_batch_queue_jump(iter, JUMP_LABEL_NOP);
}

int jump_label_module_prepare(struct module *mod)
{
	unsigned int i;
	int ret;

	lockdep_assert_held(&module_mutex);
	/* In the file's order, so that the index means something. */
	for (i = 0; i < mod->num_jump_entries; i++) {
		ret = jump_label_module_check(mod, mod->jump_entries + i, i);
		if (ret)
			return ret;
	}
	return mod->num_jump_entries ? jump_label_module_check_sites(mod) : 0;
}

int __jump_label_module_add(struct text_batch *b, struct module *mod)
{
	struct jump_entry *start = mod->jump_entries;
	struct jump_label_module *jm;
	int ret;

	lockdep_assert_held(&jump_label_mutex);
	if (!mod->num_jump_entries)
		return 0;
	jm = kzalloc(sizeof(*jm), GFP_KERNEL);
	if (!jm)
		goto out_nomem;
	jm->mod = mod;
	jump_label_sort_entries(start, start + mod->num_jump_entries);
	ret = jump_label_module_link(mod);
	if (ret) {
		kfree(jm);
		goto out_nomem;
	}
	jump_label_module_queue(b, mod);
	list_add_tail(&jm->list, &jump_label_modules);
	jump_label_stats.modules++;
	jump_label_stats.module_entries += mod->num_jump_entries;
	return 0;

out_nomem:
	pr_err("module %s: jump_label: out of memory linking its keys\n",
	       mod->name);
	return -ENOMEM;
}

void jump_label_module_init_done(struct module *mod)
{
	lockdep_assert_held(&module_mutex);
	jump_label_lock();
	mod->jump_init_done = true;
	jump_label_unlock();
}

void __jump_label_module_del(struct module *mod)
{
	struct jump_label_module *jm;

	lockdep_assert_held(&jump_label_mutex);
	if (!mod->num_jump_entries)
		return;
	jump_label_module_unlink(mod, mod->jump_entries + mod->num_jump_entries);
	list_for_each_entry(jm, &jump_label_modules, list) {
		if (jm->mod == mod) {
			list_del_init(&jm->list);
			kfree(jm);
			jump_label_stats.modules--;
			jump_label_stats.module_entries -= mod->num_jump_entries;
			break;
		}
	}
}

void jump_label_module_del(struct module *mod)
{
	lockdep_assert_held(&module_mutex);
	if (!mod->num_jump_entries)
		return;
	cpus_read_lock();
	jump_label_lock();
	__jump_label_module_del(mod);
	jump_label_unlock();
	cpus_read_unlock();
}
