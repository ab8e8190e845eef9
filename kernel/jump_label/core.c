// SPDX-License-Identifier: GPL-2.0
/*
 * Static keys: the key state machine, the sorted jump table and the walk
 * that hands a key's sites to the arch. See <linux/jump_label.h> for the
 * API and the truth table, <linux/jump_label_arch.h> for the arch hooks.
 *
 * Locking: every update is a text batch (<linux/text_batch.h>), which
 * takes the locks in their one order. jump_label_mutex serializes every
 * change of code; the count is changed without it only on the fast paths,
 * which never cross 0 <-> 1: an inc of an enabled key (n > 0 -> n + 1) and
 * a dec that stays above 0. Every update holds the CPU hotplug lock (for
 * reading, or for writing in a hotplug callback), so that no CPU comes or
 * goes while code changes: the plain calls take it, the _cpuslocked ones
 * expect it. As in Linux, __name is the worker that expects the hotplug
 * lock beside name that takes it, and a name ending in _locked expects
 * jump_label_mutex held (static_key_inc_update() and
 * static_key_dec_update() take it); jump_label_update() takes text_mutex
 * for the batch. Deferred keys: kernel/jump_label/ratelimit.c.
 */
#include <linux/kernel.h>
#include <linux/cpu.h>
#include <linux/memory.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/jump_label_arch.h>
#include <linux/jump_label_ratelimit.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/spinlock.h>
#include <linux/text_batch.h>
#include <linux/timex.h>
#include <linux/warn_record.h>
#include <asm/module.h>
#include "internal.h"

DEFINE_MUTEX(jump_label_mutex);
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

DEFINE_WARN_RECORD(static_key_warned, 64);

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

void static_key_misuse(struct static_key *key, enum static_key_misuse kind,
		       unsigned long caller)
{
	unsigned long disabler = 0;

	if (!warn_record_first(&static_key_warned, key, kind))
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

/* The checks past the common case; false if the key must not be touched. */
noinline bool static_key_check_use_slow(struct static_key *key,
					unsigned long caller)
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
 * hotplug lock is named with the key, then @b takes the lock itself for
 * the call, so the key ends as the caller asked and no CPU comes or goes
 * during the patching. So the workers (__static_key_slow_inc() and the
 * others) always run with the lock held: the plain entry points take it,
 * these check it.
 */
static void static_key_cpus_lock(struct text_batch *b, struct static_key *key,
				 unsigned long caller)
{
	if (likely(cpus_lock_held()))
		return;
	static_key_misuse(key, MISUSE_CPUS_UNLOCKED, caller);
	text_batch_lock(b, TEXT_BATCH_CPUS);
}

static void jump_label_update(struct text_batch *b, struct static_key *key);

/*
 * A worker that may patch (static_key_inc_update() and the others) runs
 * with the hotplug lock its entry point took or checked, and makes a
 * batch of its own on it (TEXT_BATCH_CPUS_HELD) for jump_label_mutex and,
 * to patch, text_mutex, which it drops before it returns: the entry
 * point's batch never escapes, so its lock and unlock fold to the hotplug
 * lock's calls, and the worker's lock to jump_label_lock().
 */

/*
 * 0 -> -1 -> 1 around the patching: -1 tells every reader of the count
 * that the first enable is under way. Called with @b holding
 * jump_label_mutex and the count at 0; by_inc says whether the 1 is an
 * inc's reference.
 */
static void static_key_enable_locked(struct text_batch *b,
				     struct static_key *key, bool by_inc)
{
	BUILD_BUG_ON(sizeof(struct static_key) != 16);
	key->by_inc = by_inc;
	atomic_set(&key->enabled, -1);
	jump_label_update(b, key);
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

/* The inc that may patch: takes jump_label_mutex; the hotplug lock held. */
static bool static_key_inc_update(struct static_key *key, unsigned long caller)
{
	struct text_batch b = TEXT_BATCH_CPUS_HELD;
	bool ret = true;
	int v;

	__text_batch_lock(&b, TEXT_BATCH_KEYS);
	/* -1 exists only inside this lock: any negative count is broken. */
	v = atomic_read(&key->enabled);
	if (v == 0) {
		static_key_enable_locked(&b, key, true);
	} else if (v < 0) {
		static_key_misuse(key, MISUSE_NEGATIVE, caller);
		ret = false;
	} else if (!__static_key_inc_not_disabled(key)) {
		static_key_misuse(key, MISUSE_OVERFLOW, caller);
		ret = false;
	}
	__text_batch_unlock(&b, TEXT_BATCH_KEYS | TEXT_BATCH_TEXT);
	return ret;
}

static bool __static_key_slow_inc(struct static_key *key, unsigned long caller)
{
	if (!static_key_check_use(key, caller))
		return false;
	if (__static_key_inc_not_disabled(key))
		return true;
	return static_key_inc_update(key, caller);
}

bool static_key_slow_inc_cpuslocked(struct static_key *key)
{
	struct text_batch b = {};
	bool ret;

	static_key_cpus_lock(&b, key, _RET_IP_);
	ret = __static_key_slow_inc(key, _RET_IP_);
	__text_batch_unlock(&b, TEXT_BATCH_CPUS);
	return ret;
}
EXPORT_SYMBOL_GPL(static_key_slow_inc_cpuslocked);

static noinline bool static_key_slow_inc_slowpath(struct static_key *key,
						  unsigned long caller)
{
	struct text_batch b = {};
	bool ret;

	if (!static_key_check_use(key, caller))
		return false;
	if (__static_key_inc_not_disabled(key))
		return true;
	__text_batch_lock(&b, TEXT_BATCH_CPUS);
	ret = static_key_inc_update(key, caller);
	__text_batch_unlock(&b, TEXT_BATCH_CPUS);
	return ret;
}

bool static_key_slow_inc(struct static_key *key)
{
	/* The fast path changes no code: no need for the hotplug lock. */
	if (static_key_use_plain(key) &&
	    likely(__static_key_inc_not_disabled(key)))
		return true;
	return static_key_slow_inc_slowpath(key, _RET_IP_);
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

/* The dec that may patch: takes jump_label_mutex; the hotplug lock held. */
static void static_key_dec_update(struct static_key *key, unsigned long caller)
{
	struct text_batch b = TEXT_BATCH_CPUS_HELD;
	enum static_key_misuse kind;
	int v;

	__text_batch_lock(&b, TEXT_BATCH_KEYS);
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
			jump_label_update(&b, key);
		}
		break;
	}
	__text_batch_unlock(&b, TEXT_BATCH_KEYS | TEXT_BATCH_TEXT);
}

static void __static_key_slow_dec(struct static_key *key, unsigned long caller)
{
	if (!static_key_check_use(key, caller))
		return;
	/* Fast path: the count stays above zero, no code changes. */
	if (static_key_dec_above_one(key))
		return;
	static_key_dec_update(key, caller);
}

void static_key_slow_dec_cpuslocked(struct static_key *key)
{
	struct text_batch b = {};

	static_key_cpus_lock(&b, key, _RET_IP_);
	__static_key_slow_dec(key, _RET_IP_);
	__text_batch_unlock(&b, TEXT_BATCH_CPUS);
}
EXPORT_SYMBOL_GPL(static_key_slow_dec_cpuslocked);

static noinline void static_key_slow_dec_slowpath(struct static_key *key,
						  unsigned long caller)
{
	struct text_batch b = {};

	if (!static_key_check_use(key, caller))
		return;
	if (static_key_dec_above_one(key))
		return;
	__text_batch_lock(&b, TEXT_BATCH_CPUS);
	static_key_dec_update(key, caller);
	__text_batch_unlock(&b, TEXT_BATCH_CPUS);
}

void static_key_slow_dec(struct static_key *key)
{
	if (static_key_use_plain(key) && likely(static_key_dec_above_one(key)))
		return;
	static_key_slow_dec_slowpath(key, _RET_IP_);
}
EXPORT_SYMBOL_GPL(static_key_slow_dec);

static void __static_key_enable(struct static_key *key, unsigned long caller)
{
	struct text_batch b = TEXT_BATCH_CPUS_HELD;
	int v;

	if (!static_key_check_use(key, caller))
		return;
	v = atomic_read(&key->enabled);
	if (v > 0) {
		if (v != 1)
			static_key_misuse(key, MISUSE_MIXED, caller);
		return;
	}
	__text_batch_lock(&b, TEXT_BATCH_KEYS);
	v = atomic_read(&key->enabled);
	if (v == 0)
		static_key_enable_locked(&b, key, false);
	else if (v < 0)
		static_key_misuse(key, MISUSE_NEGATIVE, caller);
	else if (v != 1)
		static_key_misuse(key, MISUSE_MIXED, caller);
	__text_batch_unlock(&b, TEXT_BATCH_KEYS | TEXT_BATCH_TEXT);
}

void static_key_enable_cpuslocked(struct static_key *key)
{
	struct text_batch b = {};

	static_key_cpus_lock(&b, key, _RET_IP_);
	__static_key_enable(key, _RET_IP_);
	__text_batch_unlock(&b, TEXT_BATCH_CPUS);
}
EXPORT_SYMBOL_GPL(static_key_enable_cpuslocked);

void static_key_enable(struct static_key *key)
{
	struct text_batch b = {};

	__text_batch_lock(&b, TEXT_BATCH_CPUS);
	__static_key_enable(key, _RET_IP_);
	__text_batch_unlock(&b, TEXT_BATCH_CPUS);
}
EXPORT_SYMBOL_GPL(static_key_enable);

static void __static_key_disable(struct static_key *key, unsigned long caller)
{
	struct text_batch b = TEXT_BATCH_CPUS_HELD;
	int v;

	if (!static_key_check_use(key, caller))
		return;
	if (atomic_read(&key->enabled) == 0)
		return;
	__text_batch_lock(&b, TEXT_BATCH_KEYS);
	v = 1;
	if (atomic_try_cmpxchg(&key->enabled, &v, 0)) {
		/* See held_disables: an underflow to come will name us. */
		if (key->by_inc)
			static_key_note_held_disable(key, caller);
		key->by_inc = false;
		jump_label_update(&b, key);
	} else if (v < 0) {
		static_key_misuse(key, MISUSE_NEGATIVE, caller);
	} else if (v != 0) {
		static_key_misuse(key, MISUSE_MIXED, caller);
	}
	__text_batch_unlock(&b, TEXT_BATCH_KEYS | TEXT_BATCH_TEXT);
}

void static_key_disable_cpuslocked(struct static_key *key)
{
	struct text_batch b = {};

	static_key_cpus_lock(&b, key, _RET_IP_);
	__static_key_disable(key, _RET_IP_);
	__text_batch_unlock(&b, TEXT_BATCH_CPUS);
}
EXPORT_SYMBOL_GPL(static_key_disable_cpuslocked);

void static_key_disable(struct static_key *key)
{
	struct text_batch b = {};

	__text_batch_lock(&b, TEXT_BATCH_CPUS);
	__static_key_disable(key, _RET_IP_);
	__text_batch_unlock(&b, TEXT_BATCH_CPUS);
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
 * A __static_key_for_each_site() step: the batch (checked by the walk's
 * caller) gets entry's site for its key's state *(bool *)enabled.
 */
static __always_inline int jump_label_queue_site(struct jump_entry *entry,
						 struct module *mod,
						 void *enabled)
{
	__text_batch_queue_jump(entry, *(bool *)enabled ^
					       jump_entry_is_branch(entry));
	return 0;
}

void jump_label_queue_key(struct text_batch *b, struct static_key *key)
{
	bool enabled = __static_key_enabled(key);

	if (unlikely(!text_batch_may_queue(b))) {
		text_batch_refuse(b, TEXT_BATCH_OP_QUEUE);
		return;
	}
	__static_key_for_each_site(key, jump_label_queue_site, &enabled);
}

/*
 * Hands the key's sites, the kernel's and modules', to @b as one batch;
 * @b holds jump_label_mutex and takes text_mutex for the batch.
 */
static void jump_label_update(struct text_batch *b, struct static_key *key)
{
	/* Before init the count changes alone; jump_label_init() catches up. */
	if (!static_key_initialized)
		return;
	__text_batch_lock(b, TEXT_BATCH_TEXT);
	jump_label_queue_key(b, key);
	text_batch_apply(b);
}

static int jump_label_cmp(const void *a, const void *b)
{
	return jump_entry_cmp(a, b);
}

/* Swaps two entries: each keeps pointing at its site, target and key. */
static void jump_label_swap(void *a, void *b, int size)
{
	struct jump_entry *ja = a, *jb = b;
	unsigned long code = jump_entry_code(ja),
		      target = jump_entry_target(ja);
	struct static_key *key = jump_entry_key(ja);
	unsigned int flags = jump_entry_flags(ja);

	jump_entry_set(ja, jump_entry_code(jb), jump_entry_target(jb),
		       jump_entry_key(jb), jump_entry_flags(jb));
	jump_entry_set(jb, code, target, key, flags);
}

/* The first entry of [start, stop) out of jump_entry_cmp()'s order, or stop. */
static struct jump_entry *jump_label_unsorted(struct jump_entry *start,
					      struct jump_entry *stop)
{
	struct jump_entry *iter;

	for (iter = start + 1; iter < stop; iter++)
		if (jump_entry_cmp(iter - 1, iter) > 0)
			return iter;
	return stop;
}

static void jump_label_sort(struct jump_entry *start, struct jump_entry *stop)
{
	sort(start, stop - start, sizeof(*start), jump_label_cmp,
	     jump_label_swap);
}

/*
 * A module's table comes as the compiler and the linker left it (sorted
 * within each object), so this is one pass that usually finds it in order;
 * a table that is not is sorted here.
 */
bool jump_label_sort_entries(struct jump_entry *start, struct jump_entry *stop)
{
	if (start >= stop || jump_label_unsorted(start, stop) == stop)
		return false;
	jump_label_sort(start, stop);
	return true;
}

static int static_key_def_cmp(const void *a, const void *b)
{
	const struct static_key_def *da = a, *db = b;

	if (da->key != db->key)
		return da->key < db->key ? -1 : 1;
	return 0;
}

/*
 * The kernel's key definitions, by address for the module loader's binary
 * search: scripts/jump_label_fixup sorts them in the image, so this is a
 * check in one pass; an image it did not fix is sorted here.
 */
static void __init static_key_defs_sort(void)
{
	struct static_key_def *start = __start___static_keys;
	struct static_key_def *stop = __stop___static_keys, *iter;

	for (iter = start + 1; iter < stop; iter++)
		if (iter[-1].key > iter->key)
			break;
	if (iter < stop)
		sort(start, stop - start, sizeof(*start), static_key_def_cmp,
		     NULL);
}

/*
 * The keys changed before jump_label_init() (which WARNed): their sites
 * still hold their defaults and are patched at init. Past the end of this
 * short list, init walks the whole table for them.
 */
static struct static_key *changed_keys[8] __initdata;

/*
 * Boot's one pass over the kernel's table: checks jump_entry_order(),
 * points each key at its first entry, marks the entries in init text (the
 * image holds that bit clear: scripts/jump_label_fixup checks it) and
 * counts keys, short sites and the keys changed before init. Returns the
 * first entry out of order (the caller sorts and runs the pass again), or
 * stop.
 */
static struct jump_entry *__init jump_label_link(struct jump_entry *start,
						 struct jump_entry *stop)
{
	const unsigned long init_begin = (unsigned long)__init_text_begin;
	const unsigned long init_size = __init_text_end - __init_text_begin;
	unsigned int keys = 0, shorts = 0, changed = 0;
	unsigned long code, prev_code = 0;
	struct static_key *key = NULL, *k;
	struct jump_entry *iter;

	for (iter = start; iter < stop; iter++) {
		k = jump_entry_key(iter);
		code = jump_entry_code(iter);
		if (iter > start &&
		    jump_entry_order((unsigned long)key, prev_code,
				     (unsigned long)k, code) > 0)
			break;
		prev_code = code;
		if (k != key) {
			key = k;
			key->type = (unsigned long)iter |
				    (key->type & JUMP_TYPE_MASK);
			keys++;
			if (unlikely(__static_key_enabled(key) !=
				     static_key_type(key))) {
				if (changed < ARRAY_SIZE(changed_keys))
					changed_keys[changed] = key;
				changed++;
			}
		}
		if (unlikely(code - init_begin < init_size))
			jump_entry_set_init(iter, true);
		shorts += arch_jump_entry_is_short(iter);
	}
	jump_label_stats.keys = keys;
	jump_label_stats.short_sites = shorts;
	jump_label_stats.changed_keys = changed;
	return iter;
}

/* Queues every site of @key in the kernel's table for its state now. */
static void __init jump_label_queue_boot_key(struct text_batch *b,
					     struct static_key *key)
{
	struct jump_entry *entry;

	for_each_key_entry(key, entry)
		text_batch_queue_jump(b, entry, jump_label_type(entry));
}

/*
 * Patches the sites of the keys changed before init, in one batch; @b holds
 * the hotplug lock and jump_label_mutex and takes text_mutex for it.
 */
static void __init jump_label_catch_up(struct text_batch *b,
				       struct jump_entry *start,
				       struct jump_entry *stop)
{
	unsigned int i, n = jump_label_stats.changed_keys;
	struct jump_entry *first, *next;
	struct static_key *key;

	/* Inline: the lock-order checker records text_mutex as init's. */
	__text_batch_lock(b, TEXT_BATCH_TEXT);
	if (n <= ARRAY_SIZE(changed_keys)) {
		for (i = 0; i < n; i++)
			jump_label_queue_boot_key(b, changed_keys[i]);
	} else {
		for_each_jump_key(first, next, start, stop) {
			key = jump_entry_key(first);
			if (__static_key_enabled(key) != static_key_type(key))
				jump_label_queue_boot_key(b, key);
		}
	}
	text_batch_apply(b);
}

void __init jump_label_init(void)
{
	struct jump_entry *start = __start___jump_table;
	struct jump_entry *stop = __stop___jump_table;
	struct jump_label_stats *s = &jump_label_stats;
	struct text_batch b = {};
	u64 t0 = get_cycles();

	BUILD_BUG_ON(sizeof(struct jump_entry) != 12);
	/* The key offset's flag bits: both ends of it are 4-aligned. */
	BUILD_BUG_ON(__alignof__(struct jump_entry) <= JUMP_ENTRY_FLAGS);
	BUILD_BUG_ON(__alignof__(struct static_key) <= JUMP_ENTRY_FLAGS);
	if (static_key_initialized)
		return;
	__text_batch_lock(&b, TEXT_BATCH_CPUS | TEXT_BATCH_KEYS);
	static_key_defs_sort();
	s->sorted_at_boot = jump_label_link(start, stop) != stop;
	if (s->sorted_at_boot) {
		jump_label_sort(start, stop);
		jump_label_link(start, stop);
	}
	if (s->changed_keys)
		jump_label_catch_up(&b, start, stop);
	static_key_initialized = true;
	s->entries = stop - start;
	s->init_cycles = get_cycles() - t0;
	text_batch_unlock(&b, TEXT_BATCH_ALL);
	pr_info("jump_label: %u entries, %u keys, %u short and %u long sites, %zu table bytes%s\n",
		s->entries, s->keys, s->short_sites,
		s->entries - s->short_sites, s->entries * sizeof(*start),
		s->sorted_at_boot ? " (sorted at boot: the image's was not)" :
				    "");
}

/* Freezes the __ro_after_init keys; called just before they become RO. */
void jump_label_init_ro(void)
{
	struct jump_entry *first, *next;
	unsigned int sealed = 0;

	jump_label_lock();
	jump_label_ro_sealed = true;
	for_each_jump_key(first, next, __start___jump_table,
			  __stop___jump_table)
		sealed += static_key_sealed(jump_entry_key(first));
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

static void jump_label_update(struct text_batch *b, struct static_key *key)
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
int jump_label_module_prepare(struct module *mod)
{
	return 0;
}

int __jump_label_module_add(struct text_batch *b, struct module *mod)
{
	return 0;
}

void __jump_label_module_del(struct module *mod)
{
}

void jump_label_module_init_done(struct module *mod)
{
}

void jump_label_module_del(struct module *mod)
{
}

#endif /* CONFIG_JUMP_LABEL */
