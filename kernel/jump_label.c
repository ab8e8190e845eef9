// SPDX-License-Identifier: GPL-2.0
/*
 * Static keys: the key state machine, the sorted jump table and the walk
 * that hands a key's sites to the arch. See <linux/jump_label.h> for the
 * API and the truth table, <linux/jump_label_arch.h> for the arch hooks.
 *
 * Locking: jump_label_mutex serializes every change of code. The count is
 * changed without it only on the fast paths, which never cross 0 <-> 1:
 * an inc of an enabled key (n > 0 -> n + 1) and a dec that stays above 0.
 * Every update holds the CPU hotplug lock (for reading, or for writing in
 * a hotplug callback), so that no CPU comes or goes while code changes:
 * the plain calls take it, the _cpuslocked ones expect it.
 */
#include <linux/kernel.h>
#include <linux/cpu.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/jump_label_arch.h>
#include <linux/jump_label_ratelimit.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/spinlock.h>
#include <asm/module.h>
#include <asm/processor.h>
#include "jump_label_internal.h"

static DEFINE_MUTEX(jump_label_mutex);
bool static_key_initialized;
/* Set by jump_label_init_ro(): __ro_after_init keys are frozen from then on. */
bool jump_label_ro_sealed;

void jump_label_lock(void)
{
	mutex_lock(&jump_label_mutex);
}

void jump_label_unlock(void)
{
	mutex_unlock(&jump_label_mutex);
}

/*
 * Misuse WARNs once per key and kind of misuse, naming the key, with the
 * caller (the code that called the API) as the WARN's place; later misuses
 * of the same kind on the same key stay quiet. The record is small: past
 * its end every misuse warns.
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

static const char *const misuse_text[] = {
	[MISUSE_BEFORE_INIT] = "used before jump_label_init()",
	[MISUSE_UNDERFLOW] = "decremented below zero (unbalanced dec)",
	[MISUSE_MIXED] = "enable/disable mixed with inc/dec",
	[MISUSE_OVERFLOW] = "count would overflow INT_MAX",
	[MISUSE_SEALED] = "changed after init, but it is read-only (_RO)",
	[MISUSE_CPUS_UNLOCKED] =
		"changed by a _cpuslocked call without cpus_read_lock() held (taken for the call)",
	[MISUSE_NEGATIVE] = "has a negative count: memory corruption, or a "
			    "write that bypassed the API; left as it is",
};

static struct {
	struct static_key *key;
	enum static_key_misuse kind;
} misuse_seen[64];
static unsigned int nr_misuse_seen;

/*
 * static_key_disable() at a count of 1 that an inc took (by_inc) disables
 * the key, as in Linux, but the inc's holder will still dec, and that dec
 * underflows. The disable itself cannot WARN: the holder may be the one
 * disabling, with no dec to come, or a TRUE key may be back at its default
 * after a dec and an inc. So the disable is remembered here and the
 * underflow, if it comes, names it. Past the end of this small record the
 * underflow WARNs without the name.
 */
static struct {
	struct static_key *key;
	unsigned long caller;
} held_disables[16];
static unsigned int nr_held_disables;

static DEFINE_SPINLOCK(misuse_lock);

static void static_key_note_held_disable(struct static_key *key,
					 unsigned long caller)
{
	unsigned long flags;
	unsigned int i;

	spin_lock_irqsave(&misuse_lock, flags);
	for (i = 0; i < nr_held_disables && held_disables[i].key != key; i++)
		;
	if (i < ARRAY_SIZE(held_disables)) {
		held_disables[i].key = key;
		held_disables[i].caller = caller;
		nr_held_disables += i == nr_held_disables;
	}
	spin_unlock_irqrestore(&misuse_lock, flags);
}

/* The caller of the last held disable of key, or 0. */
static unsigned long static_key_held_disable(struct static_key *key)
{
	unsigned long flags, caller = 0;
	unsigned int i;

	spin_lock_irqsave(&misuse_lock, flags);
	for (i = 0; i < nr_held_disables && !caller; i++)
		if (held_disables[i].key == key)
			caller = held_disables[i].caller;
	spin_unlock_irqrestore(&misuse_lock, flags);
	return caller;
}

/* Records (key, kind); false if it was recorded before. */
static bool static_key_misuse_first(struct static_key *key,
				    enum static_key_misuse kind)
{
	unsigned long flags;
	unsigned int i;
	bool first = true;

	spin_lock_irqsave(&misuse_lock, flags);
	for (i = 0; i < nr_misuse_seen && first; i++)
		first = misuse_seen[i].key != key || misuse_seen[i].kind != kind;
	if (first && nr_misuse_seen < ARRAY_SIZE(misuse_seen)) {
		misuse_seen[nr_misuse_seen].key = key;
		misuse_seen[nr_misuse_seen++].kind = kind;
	}
	spin_unlock_irqrestore(&misuse_lock, flags);
	return first;
}

static void static_key_misuse(struct static_key *key,
			      enum static_key_misuse kind, unsigned long caller)
{
	unsigned long disabler = 0;

	if (!static_key_misuse_first(key, kind))
		return;
	if (kind == MISUSE_UNDERFLOW)
		disabler = static_key_held_disable(key);
	/* No file and line: they would be this line, not the misuse's. */
	if (disabler)
		__warn(NULL, 0, caller,
		       "static key %pS %s (count %d): %pS had disabled it while "
		       "an inc held it\n",
		       key, misuse_text[kind], atomic_read(&key->enabled),
		       (void *)disabler);
	else
		__warn(NULL, 0, caller, "static key %pS %s (count %d)\n", key,
		       misuse_text[kind], atomic_read(&key->enabled));
}

/*
 * A module's __ro_after_init keys are sealed once its init is over
 * (jump_init_done is set before the region becomes read-only). A change
 * racing with that seal can still fault, as in Linux: the owner's init is
 * the place to change them.
 */
static bool static_key_module_sealed(struct static_key *key)
{
	unsigned long k = (unsigned long)key;
	struct module *mod;

	/* Every inc and dec asks: a kernel key must not walk the modules. */
	if (!within_module_area(k))
		return false;
	mod = __module_address(k);
	return mod && within_module_mem_type(k, mod, MOD_RO_AFTER_INIT) &&
	       READ_ONCE(mod->jump_init_done);
}

/* True if the key lives in __ro_after_init data that is read-only now. */
static bool static_key_sealed(struct static_key *key)
{
	if ((void *)key >= (void *)__start_ro_after_init &&
	    (void *)key < (void *)__end_ro_after_init)
		return jump_label_ro_sealed;
	return IS_ENABLED(CONFIG_MODULES) && static_key_module_sealed(key);
}

/* Common entry checks; false if the key must not be touched at all. */
static bool static_key_check_use(struct static_key *key, unsigned long caller)
{
	if (unlikely(!static_key_initialized))
		static_key_misuse(key, MISUSE_BEFORE_INIT, caller);
	if (unlikely(static_key_sealed(key))) {
		static_key_misuse(key, MISUSE_SEALED, caller);
		return false;
	}
	return true;
}

/*
 * The _cpuslocked entry points: a caller that does not hold the CPU
 * hotplug lock is named with the key, then the call takes the lock itself
 * and does its work, so the key ends as the caller asked and no CPU comes
 * or goes during the patching. True if it took the lock: drop it after.
 * So the workers (__static_key_slow_inc() and the others) always run with
 * the lock held: the plain entry points take it, these check it.
 */
static bool static_key_cpus_lock(struct static_key *key, unsigned long caller)
{
	if (likely(cpus_lock_held()))
		return false;
	static_key_misuse(key, MISUSE_CPUS_UNLOCKED, caller);
	cpus_read_lock();
	return true;
}

static void static_key_cpus_unlock(bool locked)
{
	if (unlikely(locked))
		cpus_read_unlock();
}

static void jump_label_update(struct static_key *key);

/*
 * 0 -> -1 -> 1 around the patching: -1 tells every reader of the count
 * that the first enable is under way. Called with jump_label_mutex held
 * and the count at 0; by_inc says whether the 1 is an inc's reference.
 */
static void static_key_enable_locked(struct static_key *key, bool by_inc)
{
	BUILD_BUG_ON(sizeof(struct static_key) != 16);
	key->by_inc = by_inc;
	atomic_set(&key->enabled, -1);
	jump_label_update(key);
	atomic_set_release(&key->enabled, 1);
}

/* n > 0 -> n + 1 without the lock; false at 0, while enabling, or INT_MAX. */
static bool __static_key_inc_not_disabled(struct static_key *key)
{
	int v = atomic_read(&key->enabled);

	do {
		if (v <= 0 || v == INT_MAX)
			return false;
	} while (!atomic_try_cmpxchg(&key->enabled, &v, v + 1));
	return true;
}

bool static_key_fast_inc_not_disabled(struct static_key *key)
{
	if (!static_key_check_use(key, _RET_IP_))
		return false;
	return __static_key_inc_not_disabled(key);
}
EXPORT_SYMBOL_GPL(static_key_fast_inc_not_disabled);

/* The inc that may patch: under jump_label_mutex, the hotplug lock held. */
static bool static_key_inc_locked(struct static_key *key, unsigned long caller)
{
	bool ret = true;
	int v;

	jump_label_lock();
	/* -1 exists only inside this lock: any negative count is broken. */
	v = atomic_read(&key->enabled);
	if (v == 0) {
		static_key_enable_locked(key, true);
	} else if (v < 0) {
		static_key_misuse(key, MISUSE_NEGATIVE, caller);
		ret = false;
	} else if (!__static_key_inc_not_disabled(key)) {
		static_key_misuse(key, MISUSE_OVERFLOW, caller);
		ret = false;
	}
	jump_label_unlock();
	return ret;
}

static bool __static_key_slow_inc(struct static_key *key, unsigned long caller)
{
	if (!static_key_check_use(key, caller))
		return false;
	if (__static_key_inc_not_disabled(key))
		return true;
	return static_key_inc_locked(key, caller);
}

bool static_key_slow_inc_cpuslocked(struct static_key *key)
{
	bool locked = static_key_cpus_lock(key, _RET_IP_);
	bool ret = __static_key_slow_inc(key, _RET_IP_);

	static_key_cpus_unlock(locked);
	return ret;
}
EXPORT_SYMBOL_GPL(static_key_slow_inc_cpuslocked);

bool static_key_slow_inc(struct static_key *key)
{
	bool ret;

	if (!static_key_check_use(key, _RET_IP_))
		return false;
	/* The fast path changes no code: no need for the hotplug lock. */
	if (likely(__static_key_inc_not_disabled(key)))
		return true;
	cpus_read_lock();
	ret = static_key_inc_locked(key, _RET_IP_);
	cpus_read_unlock();
	return ret;
}
EXPORT_SYMBOL_GPL(static_key_slow_inc);

/* n > 1 -> n - 1 without any lock: true if done (no code changes). */
static bool static_key_dec_above_one(struct static_key *key)
{
	int v = atomic_read(&key->enabled);

	while (v > 1)
		if (atomic_try_cmpxchg(&key->enabled, &v, v - 1))
			return true;
	return false;
}

/* The dec that may patch: under jump_label_mutex, the hotplug lock held. */
static void static_key_dec_locked(struct static_key *key, unsigned long caller)
{
	enum static_key_misuse kind;
	int v;

	jump_label_lock();
	v = atomic_read(&key->enabled);
	for (;;) {
		if (v <= 0) {
			kind = v ? MISUSE_NEGATIVE : MISUSE_UNDERFLOW;
			static_key_misuse(key, kind, caller);
			break;
		}
		if (!atomic_try_cmpxchg(&key->enabled, &v, v - 1))
			continue;
		if (v == 1) {
			key->by_inc = false;
			jump_label_update(key);
		}
		break;
	}
	jump_label_unlock();
}

static void __static_key_slow_dec(struct static_key *key, unsigned long caller)
{
	if (!static_key_check_use(key, caller))
		return;
	/* Fast path: the count stays above zero, no code changes. */
	if (static_key_dec_above_one(key))
		return;
	static_key_dec_locked(key, caller);
}

void static_key_slow_dec_cpuslocked(struct static_key *key)
{
	bool locked = static_key_cpus_lock(key, _RET_IP_);

	__static_key_slow_dec(key, _RET_IP_);
	static_key_cpus_unlock(locked);
}
EXPORT_SYMBOL_GPL(static_key_slow_dec_cpuslocked);

void static_key_slow_dec(struct static_key *key)
{
	if (!static_key_check_use(key, _RET_IP_))
		return;
	if (likely(static_key_dec_above_one(key)))
		return;
	cpus_read_lock();
	static_key_dec_locked(key, _RET_IP_);
	cpus_read_unlock();
}
EXPORT_SYMBOL_GPL(static_key_slow_dec);

static void __static_key_enable(struct static_key *key, unsigned long caller)
{
	int v;

	if (!static_key_check_use(key, caller))
		return;
	v = atomic_read(&key->enabled);
	if (v > 0) {
		if (v != 1)
			static_key_misuse(key, MISUSE_MIXED, caller);
		return;
	}
	jump_label_lock();
	v = atomic_read(&key->enabled);
	if (v == 0)
		static_key_enable_locked(key, false);
	else if (v < 0)
		static_key_misuse(key, MISUSE_NEGATIVE, caller);
	else if (v != 1)
		static_key_misuse(key, MISUSE_MIXED, caller);
	jump_label_unlock();
}

void static_key_enable_cpuslocked(struct static_key *key)
{
	bool locked = static_key_cpus_lock(key, _RET_IP_);

	__static_key_enable(key, _RET_IP_);
	static_key_cpus_unlock(locked);
}
EXPORT_SYMBOL_GPL(static_key_enable_cpuslocked);

void static_key_enable(struct static_key *key)
{
	cpus_read_lock();
	__static_key_enable(key, _RET_IP_);
	cpus_read_unlock();
}
EXPORT_SYMBOL_GPL(static_key_enable);

static void __static_key_disable(struct static_key *key, unsigned long caller)
{
	int v;

	if (!static_key_check_use(key, caller))
		return;
	if (atomic_read(&key->enabled) == 0)
		return;
	jump_label_lock();
	v = 1;
	if (atomic_try_cmpxchg(&key->enabled, &v, 0)) {
		/* See held_disables: an underflow to come will name us. */
		if (key->by_inc)
			static_key_note_held_disable(key, caller);
		key->by_inc = false;
		jump_label_update(key);
	} else if (v < 0) {
		static_key_misuse(key, MISUSE_NEGATIVE, caller);
	} else if (v != 0) {
		static_key_misuse(key, MISUSE_MIXED, caller);
	}
	jump_label_unlock();
}

void static_key_disable_cpuslocked(struct static_key *key)
{
	bool locked = static_key_cpus_lock(key, _RET_IP_);

	__static_key_disable(key, _RET_IP_);
	static_key_cpus_unlock(locked);
}
EXPORT_SYMBOL_GPL(static_key_disable_cpuslocked);

void static_key_disable(struct static_key *key)
{
	cpus_read_lock();
	__static_key_disable(key, _RET_IP_);
	cpus_read_unlock();
}
EXPORT_SYMBOL_GPL(static_key_disable);

struct jump_label_stats jump_label_stats;

#ifdef CONFIG_JUMP_LABEL

static bool static_key_type(struct static_key *key)
{
	return key->type & JUMP_TYPE_TRUE;
}

enum jump_label_type jump_label_type(struct jump_entry *entry)
{
	return __static_key_enabled(jump_entry_key(entry)) ^
	       jump_entry_is_branch(entry);
}

bool __weak arch_jump_entry_is_short(struct jump_entry *entry)
{
	return false;
}

/* Sites in freed init text (the kernel's or a module's) no longer exist. */
bool jump_entry_dead(struct jump_entry *entry, struct module *mod)
{
	if (!jump_entry_is_init(entry))
		return false;
	return mod ? mod->jump_init_done : !init_mem_available;
}

/*
 * The walk behind static_key_for_each_site() and every flip: the kernel's
 * entries of the key, then each linked module's. Always inlined, so that
 * the flip's callback is a direct call.
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

int static_key_for_each_site(struct static_key *key,
			     int (*fn)(struct jump_entry *entry,
				       struct module *mod, void *data),
			     void *data)
{
	int ret;

	jump_label_lock();
	ret = __static_key_for_each_site(key, fn, data);
	jump_label_unlock();
	return ret;
}

static int jump_label_queue_site(struct jump_entry *entry, struct module *mod,
				 void *enabled)
{
	arch_jump_label_transform_queue(entry, *(bool *)enabled ^
					jump_entry_is_branch(entry));
	return 0;
}

/* Hands the key's sites, the kernel's and modules', to the arch as one batch. */
static void jump_label_update(struct static_key *key)
{
	bool enabled = __static_key_enabled(key);

	lockdep_assert_held(&jump_label_mutex);
	/* Before init the count changes alone; jump_label_init() catches up. */
	if (!static_key_initialized)
		return;
	__static_key_for_each_site(key, jump_label_queue_site, &enabled);
	arch_jump_label_transform_apply();
}

static int jump_label_cmp(const void *a, const void *b)
{
	const struct jump_entry *ja = a, *jb = b;
	unsigned long ka = (unsigned long)jump_entry_key(ja);
	unsigned long kb = (unsigned long)jump_entry_key(jb);

	if (ka != kb)
		return ka < kb ? -1 : 1;
	if (jump_entry_code(ja) != jump_entry_code(jb))
		return jump_entry_code(ja) < jump_entry_code(jb) ? -1 : 1;
	return 0;
}

/* Moving an entry by delta bytes moves what its offsets point at: undo it. */
static void jump_label_swap(void *a, void *b, int size)
{
	struct jump_entry *ja = a, *jb = b, tmp = *ja;
	long delta = (long)a - (long)b;

	ja->code = jb->code - delta;
	ja->target = jb->target - delta;
	ja->key = jb->key - delta;
	jb->code = tmp.code + delta;
	jb->target = tmp.target + delta;
	jb->key = tmp.key + delta;
}

/*
 * The image's table comes sorted from scripts/jump_label_fixup, so this is
 * one pass that finds it in order; a table that is not (a tool that did
 * not run, a module later) is sorted here.
 */
bool jump_label_sort_entries(struct jump_entry *start, struct jump_entry *stop)
{
	struct jump_entry *iter;

	for (iter = start + 1; iter < stop; iter++)
		if (jump_label_cmp(iter - 1, iter) > 0)
			break;
	if (iter >= stop)
		return false;
	sort(start, stop - start, sizeof(*start), jump_label_cmp,
	     jump_label_swap);
	return true;
}

static bool within_init_text(unsigned long addr)
{
	return addr >= (unsigned long)__init_text_begin &&
	       addr < (unsigned long)__init_text_end;
}

/*
 * Points each key at its first entry, marks the entries in init text and
 * counts. A key changed before this point (which WARNed) differs from its
 * default: its sites are queued to match its state now.
 */
static void __init jump_label_link(struct jump_entry *start,
				   struct jump_entry *stop)
{
	struct static_key *key = NULL;
	struct jump_entry *iter;
	bool changed = false;

	for (iter = start; iter < stop; iter++) {
		jump_entry_set_init(iter, within_init_text(jump_entry_code(iter)));
		jump_label_stats.short_sites += arch_jump_entry_is_short(iter);
		if (jump_entry_key(iter) != key) {
			key = jump_entry_key(iter);
			key->type = (unsigned long)iter | (key->type & JUMP_TYPE_MASK);
			changed = __static_key_enabled(key) != static_key_type(key);
			jump_label_stats.keys++;
		}
		if (changed)
			arch_jump_label_transform_queue(iter, jump_label_type(iter));
	}
	arch_jump_label_transform_apply();
}

void __init jump_label_init(void)
{
	struct jump_entry *start = __start___jump_table;
	struct jump_entry *stop = __stop___jump_table;
	struct jump_label_stats *s = &jump_label_stats;
	u64 t0 = rdtsc();

	BUILD_BUG_ON(sizeof(struct jump_entry) != 12);
	/* The key offset's flag bits: both ends of it are 4-aligned. */
	BUILD_BUG_ON(__alignof__(struct jump_entry) <= JUMP_ENTRY_FLAGS);
	BUILD_BUG_ON(__alignof__(struct static_key) <= JUMP_ENTRY_FLAGS);
	if (static_key_initialized)
		return;
	cpus_read_lock();
	jump_label_lock();
	s->sorted_at_boot = jump_label_sort_entries(start, stop);
	jump_label_link(start, stop);
	static_key_initialized = true;
	s->entries = stop - start;
	s->init_cycles = rdtsc() - t0;
	jump_label_unlock();
	cpus_read_unlock();
	pr_info("jump_label: %u entries, %u keys, %u short and %u long sites, %zu table bytes%s\n",
		s->entries, s->keys, s->short_sites, s->entries - s->short_sites,
		s->entries * sizeof(*start),
		s->sorted_at_boot ? " (sorted at boot: the image's was not)" : "");
}

/* Freezes the __ro_after_init keys; called just before they become RO. */
void jump_label_init_ro(void)
{
	struct jump_entry *iter;
	struct static_key *key = NULL;
	unsigned int sealed = 0;

	jump_label_lock();
	jump_label_ro_sealed = true;
	for (iter = __start___jump_table; iter < __stop___jump_table; iter++) {
		if (jump_entry_key(iter) == key)
			continue;
		key = jump_entry_key(iter);
		sealed += static_key_sealed(key);
	}
	jump_label_unlock();
	pr_info("jump_label: %u read-only keys sealed\n", sealed);
}

/* 1 if a live site of [start, stop) overlaps [tstart, tend] (inclusive). */
int jump_table_reserved(struct jump_entry *start, struct jump_entry *stop,
			struct module *mod, void *tstart, void *tend)
{
	struct jump_entry *iter;

	for (iter = start; iter < stop; iter++) {
		unsigned long code = jump_entry_code(iter);

		if (jump_entry_dead(iter, mod))
			continue;
		if (code <= (unsigned long)tend &&
		    code + arch_jump_entry_size(iter) > (unsigned long)tstart)
			return 1;
	}
	return 0;
}

#ifdef CONFIG_MODULES
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

/* The text region of mod holding [addr, addr + len), or MOD_MEM_NUM_TYPES. */
static enum mod_mem_type module_text_region(struct module *mod,
					    unsigned long addr,
					    unsigned long len)
{
	static const enum mod_mem_type text[] = { MOD_TEXT, MOD_INIT_TEXT };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(text); i++)
		if (within_module_mem_type(addr, mod, text[i]) &&
		    within_module_mem_type(addr + len - 1, mod, text[i]))
			return text[i];
	return MOD_MEM_NUM_TYPES;
}

static bool within_module_data(unsigned long addr, unsigned long len,
			       struct module *mod)
{
	static const enum mod_mem_type data[] = { MOD_DATA, MOD_RO_AFTER_INIT };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(data); i++)
		if (within_module_mem_type(addr, mod, data[i]) &&
		    within_module_mem_type(addr + len - 1, mod, data[i]))
			return true;
	return false;
}

/*
 * A key must be a struct static_key in writable data: the kernel's (its
 * ro_after_init, data and bss), the module's own, or another loaded
 * module's. Called with module_mutex held, so the module list holds still.
 */
static bool jump_label_key_plausible(struct module *mod, struct static_key *key)
{
	unsigned long k = (unsigned long)key, len = sizeof(*key);
	struct module *owner;

	if (k % __alignof__(struct static_key))
		return false;
	if ((k >= (unsigned long)_sdata && k + len <= (unsigned long)_edata) ||
	    (k >= (unsigned long)__bss_start &&
	     k + len <= (unsigned long)__bss_stop))
		return true;
	if (within_module_data(k, len, mod))
		return true;
	owner = __module_address(k);
	return owner && owner != mod && within_module_data(k, len, owner);
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
	if (!jump_label_key_plausible(mod, key)) {
		pr_err("module %s: jump entry %u: key %p of site %pS is not in kernel or module data\n",
		       mod->name, i, key, (void *)code);
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
 * entries only (or no sites at all) back in the plain form.
 */
static void static_key_unlink(struct static_key *key, struct module *mod)
{
	unsigned long flags = key->type & JUMP_TYPE_TRUE;
	struct static_key_mod *m, *prev = NULL, *first;

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
	struct static_key *key = NULL;
	struct jump_entry *iter;

	for (iter = mod->jump_entries; iter < stop; iter++) {
		if (jump_entry_key(iter) == key)
			continue;
		key = jump_entry_key(iter);
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
	struct jump_entry *stop = start + mod->num_jump_entries, *iter;
	struct static_key *key = NULL;
	unsigned int links = 0;
	int ret;

	for (iter = start; iter < stop; iter++) {
		jump_entry_set_init(iter, within_module_init(jump_entry_code(iter),
							     mod));
		if (jump_entry_key(iter) == key)
			continue;
		key = jump_entry_key(iter);
		if (jump_label_key_link(mod, key) == KEY_FROZEN)
			continue;
		ret = static_key_link(key, mod, iter);
		if (ret) {
			static_key_unlink(key, mod);
			jump_label_module_unlink(mod, iter);
			return ret;
		}
		links += !within_module_data((unsigned long)key, sizeof(*key),
					     mod);
	}
	jump_label_stats.module_links += links;
	return 0;
}

/* Every site holds the JMP: one batch turns those whose key wants a NOP. */
static void jump_label_module_set(struct module *mod)
{
	struct jump_entry *iter;

	for (iter = mod->jump_entries;
	     iter < mod->jump_entries + mod->num_jump_entries; iter++)
		if (jump_label_type(iter) == JUMP_LABEL_NOP)
			arch_jump_label_transform_queue(iter, JUMP_LABEL_NOP);
	arch_jump_label_transform_apply();
}

int jump_label_module_add(struct module *mod)
{
	struct jump_entry *start = mod->jump_entries;
	struct jump_label_module *jm;
	u64 t0 = rdtsc();
	unsigned int i;
	int ret;

	jump_label_stats.module_add_cycles = 0;
	if (!mod->num_jump_entries)
		return 0;
	/* In the file's order, so that the index means something. */
	for (i = 0; i < mod->num_jump_entries; i++) {
		ret = jump_label_module_check(mod, start + i, i);
		if (ret)
			return ret;
	}
	jm = kzalloc(sizeof(*jm), GFP_KERNEL);
	if (!jm)
		return -ENOMEM;
	jm->mod = mod;
	cpus_read_lock();
	jump_label_lock();
	jump_label_sort_entries(start, start + mod->num_jump_entries);
	ret = jump_label_module_link(mod);
	if (!ret) {
		jump_label_module_set(mod);
		list_add_tail(&jm->list, &jump_label_modules);
		jump_label_stats.modules++;
		jump_label_stats.module_entries += mod->num_jump_entries;
		jump_label_stats.module_add_cycles = rdtsc() - t0;
	}
	jump_label_unlock();
	cpus_read_unlock();
	if (ret) {
		kfree(jm);
		pr_err("module %s: jump_label: out of memory linking its keys\n",
		       mod->name);
	}
	return ret;
}

void jump_label_module_init_done(struct module *mod)
{
	jump_label_lock();
	mod->jump_init_done = true;
	jump_label_unlock();
}

void jump_label_module_del(struct module *mod)
{
	struct jump_label_module *jm;

	if (!mod->num_jump_entries)
		return;
	cpus_read_lock();
	jump_label_lock();
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
	jump_label_unlock();
	cpus_read_unlock();
}
#endif /* CONFIG_MODULES */

int jump_label_text_reserved(void *start, void *end)
{
	int ret;

	jump_label_lock();
	ret = jump_table_reserved(__start___jump_table, __stop___jump_table,
				  NULL, start, end);
	if (!ret)
		ret = jump_label_modules_reserved(start, end);
	jump_label_unlock();
	return ret;
}

#else /* !CONFIG_JUMP_LABEL: counts only, no code to patch */

static void jump_label_update(struct static_key *key)
{
}

void __init jump_label_init(void)
{
	static_key_initialized = true;
	pr_info("jump_label: CONFIG_JUMP_LABEL=n, static branches are plain tests\n");
}

void jump_label_init_ro(void)
{
	jump_label_ro_sealed = true;
}

int jump_label_text_reserved(void *start, void *end)
{
	return 0;
}

/* Sites are plain tests: a module's __jump_table is empty. */
int jump_label_module_add(struct module *mod)
{
	return 0;
}

void jump_label_module_init_done(struct module *mod)
{
}

void jump_label_module_del(struct module *mod)
{
}

#endif /* CONFIG_JUMP_LABEL */

/*
 * Deferred keys (<linux/jump_label_ratelimit.h>). The last dec is the
 * key's delayed work; the count stays 1 until it runs, so an inc within
 * the window takes the fast path and nothing is patched.
 */
void jump_label_update_timeout(struct work_struct *work)
{
	BUILD_BUG_ON(offsetof(struct static_key_true_deferred, work) !=
		     offsetof(struct static_key_deferred, work));
	BUILD_BUG_ON(offsetof(struct static_key_false_deferred, work) !=
		     offsetof(struct static_key_deferred, work));
	struct static_key_deferred *key =
		container_of(work, struct static_key_deferred, work.work);

	static_key_slow_dec(&key->key);
}
EXPORT_SYMBOL_GPL(jump_label_update_timeout);

/*
 * n > 1 -> n - 1 without the lock: true if done. False at 1 (the dec that
 * would patch) or -1 (a first enable under way: the work's slow dec waits
 * for it). At 0 the dec is unbalanced, below -1 the count is broken: WARN
 * and report it done.
 */
static bool static_key_dec_not_one(struct static_key *key,
				   unsigned long caller)
{
	int v = atomic_read(&key->enabled);
	enum static_key_misuse kind;

	do {
		if (v == 0 || v < -1) {
			kind = v ? MISUSE_NEGATIVE : MISUSE_UNDERFLOW;
			static_key_misuse(key, kind, caller);
			return true;
		}
		if (v <= 1)
			return false;
	} while (!atomic_try_cmpxchg(&key->enabled, &v, v - 1));
	return true;
}

void __static_key_slow_dec_deferred(struct static_key *key,
				    struct delayed_work *work,
				    unsigned long timeout)
{
	if (!static_key_check_use(key, _RET_IP_))
		return;
	if (static_key_dec_not_one(key, _RET_IP_))
		return;
	schedule_delayed_work(work, timeout);
}
EXPORT_SYMBOL_GPL(__static_key_slow_dec_deferred);

void __static_key_deferred_flush(void *key, struct delayed_work *work)
{
	flush_delayed_work(work);
}
EXPORT_SYMBOL_GPL(__static_key_deferred_flush);

void jump_label_rate_limit(struct static_key_deferred *key, unsigned long rl)
{
	key->timeout = rl;
	INIT_DELAYED_WORK(&key->work, jump_label_update_timeout);
}
EXPORT_SYMBOL_GPL(jump_label_rate_limit);
