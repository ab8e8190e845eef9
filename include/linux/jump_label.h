/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_JUMP_LABEL_H
#define _LINUX_JUMP_LABEL_H

/*
 * Static keys: branches whose direction is patched into the code.
 *
 *   DEFINE_STATIC_KEY_FALSE(key);
 *
 *   if (static_branch_unlikely(&key))
 *           do_rare_thing();        <- a NOP in the hot path until enabled
 *
 *   static_branch_enable(&key);     <- rewrites every site of key
 *
 * A site is one 2- or 5-byte instruction: a NOP (fall through into the
 * block the compiler laid out after it) or a JMP (to the other block). The
 * entry's branch bit is 1 for static_branch_likely(), 0 for _unlikely(), and
 * the site is a JMP exactly when (key enabled) XOR branch:
 *
 *   key type  macro      initial   enabled   disabled
 *   FALSE     unlikely   NOP       JMP       NOP
 *   FALSE     likely     JMP       NOP       JMP
 *   TRUE      unlikely   JMP       JMP       NOP
 *   TRUE      likely     NOP       NOP       JMP
 *
 * ("initial" is the key type's default state; the image ships every site in
 * it, see scripts/jump_label_fixup.c.) The macro picks the layout: with
 * likely() the true block falls through, with unlikely() the false one.
 *
 * The count: 0 is disabled, n > 0 is enabled by n users, and -1 means the
 * first static_key_slow_inc() is patching the code (static_key_count()
 * reports 1). Code is patched only on the 0 <-> 1 transitions.
 * static_key_enable()/disable() are for keys used as booleans, inc/dec for
 * reference counts; mixing them WARNs and changes nothing, except at a
 * count of 1, where enable and disable act as on a boolean whoever took the
 * 1 (as in Linux; an underflow that follows names the disable).
 */
#include <linux/atomic.h>
#include <linux/bug.h>
#include <linux/compiler.h>
#include <linux/init.h>
#include <linux/types.h>

struct jump_entry;

struct static_key {
	atomic_t enabled;
	/*
	 * True while the count's first reference came from
	 * static_key_slow_inc() (its 0 -> 1), false when static_key_enable()
	 * or the initializer set it: when static_key_disable() takes an inc's
	 * 1 away, the holder's later dec underflows, and its WARN names that
	 * disable. It fills the hole before the union, so the key keeps
	 * Linux's 16 bytes. Written and read under jump_label_mutex.
	 */
	bool by_inc;
	/*
	 * Before jump_label_init() and for keys without sites: the type bits
	 * only. Afterwards the key's first entry in the sorted __jump_table,
	 * with the type bits in the low two bits (entries are 4-aligned).
	 */
	union {
		unsigned long type;
		struct jump_entry *entries;
	};
};

#define JUMP_TYPE_FALSE 0UL
#define JUMP_TYPE_TRUE 1UL
/*
 * The key has sites in modules: set by kernel/jump_label/module.c, and
 * then the pointer bits address a chain of struct static_key_mod
 * (<linux/jump_label_table.h>), the kernel's entries, if any, first.
 */
#define JUMP_TYPE_LINKED 2UL
#define JUMP_TYPE_MASK 3UL

enum jump_label_type {
	JUMP_LABEL_NOP = 0,
	JUMP_LABEL_JMP,
};

#define __STATIC_KEY_INIT_TRUE \
	{ .enabled = ATOMIC_INIT(1), .type = JUMP_TYPE_TRUE }
#define __STATIC_KEY_INIT_FALSE \
	{ .enabled = ATOMIC_INIT(0), .type = JUMP_TYPE_FALSE }

struct static_key_true {
	struct static_key key;
};

struct static_key_false {
	struct static_key key;
};

#define STATIC_KEY_TRUE_INIT \
	(struct static_key_true) { .key = __STATIC_KEY_INIT_TRUE }
#define STATIC_KEY_FALSE_INIT \
	(struct static_key_false) { .key = __STATIC_KEY_INIT_FALSE }

/*
 * Every key the DEFINE_ macros make is listed in __static_keys, the
 * kernel's or its module's: a module's jump entry may only name a listed
 * key (or one of the kernel's own sites), since linking writes the key
 * (kernel/jump_label/core.c). count keys from key on; flags say what holds them.
 */
struct static_key_def {
	struct static_key *key;
	unsigned int count;
	unsigned int flags;
};

/* key is the key of a struct static_key_deferred (or _true/_false_). */
#define STATIC_KEY_DEF_DEFERRED 1U

#define __STATIC_KEY_DEF(name, k, n, f)                                  \
	static const struct static_key_def __static_key_def_##name __used \
		__section("__static_keys") __aligned(8) = { (k), (n), (f) }

#define DEFINE_STATIC_KEY_TRUE(name)                       \
	struct static_key_true name = STATIC_KEY_TRUE_INIT; \
	__STATIC_KEY_DEF(name, &(name).key, 1, 0)
#define DEFINE_STATIC_KEY_FALSE(name)                        \
	struct static_key_false name = STATIC_KEY_FALSE_INIT; \
	__STATIC_KEY_DEF(name, &(name).key, 1, 0)
/* Keys that only change during boot: read-only once init is done. */
#define DEFINE_STATIC_KEY_TRUE_RO(name)                                     \
	struct static_key_true name __ro_after_init = STATIC_KEY_TRUE_INIT; \
	__STATIC_KEY_DEF(name, &(name).key, 1, 0)
#define DEFINE_STATIC_KEY_FALSE_RO(name)                                      \
	struct static_key_false name __ro_after_init = STATIC_KEY_FALSE_INIT; \
	__STATIC_KEY_DEF(name, &(name).key, 1, 0)
#define DECLARE_STATIC_KEY_TRUE(name) extern struct static_key_true name
#define DECLARE_STATIC_KEY_FALSE(name) extern struct static_key_false name

#define DEFINE_STATIC_KEY_ARRAY_TRUE(name, count)                   \
	struct static_key_true name[count] = {                       \
		[0 ... (count) - 1] = STATIC_KEY_TRUE_INIT,          \
	};                                                           \
	__STATIC_KEY_DEF(name, &(name)[0].key, count, 0)
#define DEFINE_STATIC_KEY_ARRAY_FALSE(name, count)                  \
	struct static_key_false name[count] = {                      \
		[0 ... (count) - 1] = STATIC_KEY_FALSE_INIT,         \
	};                                                           \
	__STATIC_KEY_DEF(name, &(name)[0].key, count, 0)

/* A key whose default follows a config option: TRUE when cfg=y. */
#define _DEFINE_STATIC_KEY_1(name) DEFINE_STATIC_KEY_TRUE(name)
#define _DEFINE_STATIC_KEY_0(name) DEFINE_STATIC_KEY_FALSE(name)
#define DEFINE_STATIC_KEY_MAYBE(cfg, name) \
	__PASTE(_DEFINE_STATIC_KEY_, IS_ENABLED(cfg))(name)
#define _DECLARE_STATIC_KEY_1(name) DECLARE_STATIC_KEY_TRUE(name)
#define _DECLARE_STATIC_KEY_0(name) DECLARE_STATIC_KEY_FALSE(name)
#define DECLARE_STATIC_KEY_MAYBE(cfg, name) \
	__PASTE(_DECLARE_STATIC_KEY_, IS_ENABLED(cfg))(name)
/* The same choice, of a key read-only once init is done (the _RO keys). */
#define _DEFINE_STATIC_KEY_RO_1(name) DEFINE_STATIC_KEY_TRUE_RO(name)
#define _DEFINE_STATIC_KEY_RO_0(name) DEFINE_STATIC_KEY_FALSE_RO(name)
#define DEFINE_STATIC_KEY_MAYBE_RO(cfg, name) \
	__PASTE(_DEFINE_STATIC_KEY_RO_, IS_ENABLED(cfg))(name)

/*
 * Reached only when a branch macro is given something that is not a
 * struct static_key_true/false pointer: the call survives dead-code
 * elimination and the build fails with this message.
 */
extern bool ____wrong_branch_error(void)
	__attribute__((__error__("static_branch_*() needs a struct static_key_true/false pointer")));

/* Checks the same up front, so that it is the first error the user sees. */
#define __static_branch_check(x)                                            \
	_Static_assert(__same_type(*(x), struct static_key_true) ||          \
			       __same_type(*(x), struct static_key_false),   \
		       "static_branch_*() needs a struct static_key_true/false pointer")

#ifdef CONFIG_JUMP_LABEL
#include <asm/jump_label.h>

#define static_branch_likely(x)                                              \
	({                                                                   \
		bool branch;                                                 \
		__static_branch_check(x);                                    \
		if (__same_type(*(x), struct static_key_true))               \
			branch = !arch_static_branch(&(x)->key, true);       \
		else if (__same_type(*(x), struct static_key_false))         \
			branch = !arch_static_branch_jump(&(x)->key, true);  \
		else                                                         \
			branch = ____wrong_branch_error();                   \
		likely(branch);                                              \
	})

#define static_branch_unlikely(x)                                            \
	({                                                                   \
		bool branch;                                                 \
		__static_branch_check(x);                                    \
		if (__same_type(*(x), struct static_key_true))               \
			branch = arch_static_branch_jump(&(x)->key, false);  \
		else if (__same_type(*(x), struct static_key_false))         \
			branch = arch_static_branch(&(x)->key, false);       \
		else                                                         \
			branch = ____wrong_branch_error();                   \
		unlikely(branch);                                            \
	})

#else /* !CONFIG_JUMP_LABEL: a load, a test and a branch */

/* The count, read once; the type check fails the build for anything else. */
#define __static_branch_read(x)                             \
	({                                                  \
		__static_branch_check(x);                   \
		atomic_read(&(x)->key.enabled) > 0;         \
	})

#define static_branch_likely(x) likely(__static_branch_read(x))
#define static_branch_unlikely(x) unlikely(__static_branch_read(x))

#endif /* CONFIG_JUMP_LABEL */

#define static_branch_maybe(config, x)                              \
	(IS_ENABLED(config) ? static_branch_likely(x) :             \
			      static_branch_unlikely(x))

/* The key API (kernel/jump_label/core.c), the same with and without patching. */
extern bool static_key_initialized;
/* For code outside the engine: WARNs when key is used before jump_label_init(). */
#define STATIC_KEY_CHECK_USE(key)                                     \
	WARN(!static_key_initialized,                                 \
	     "%s(): static key %pS used before jump_label_init()\n", \
	     __func__, (key))

/**
 * jump_label_init() - sort the kernel's table and point each key at it
 *
 * Checks the image's jump table is in (key, code) order (sorting it if
 * not), points every key at its first entry, marks the entries in init
 * text and patches the sites of any key changed before this call. Once
 * it returns, every key API call patches.
 *
 * Context: boot, once, before any other CPU runs; takes the text batch's
 * locks.
 */
void jump_label_init(void);

/**
 * jump_label_init_ro() - seal the kernel's __ro_after_init keys
 *
 * From now on a change of a DEFINE_STATIC_KEY_*_RO() key WARNs once,
 * naming the key, and changes nothing.
 *
 * Context: boot, just before __ro_after_init data becomes read-only.
 */
void jump_label_init_ro(void);

/**
 * jump_label_lock() - take jump_label_mutex
 *
 * Serializes every change of a key's state, its links and the tables.
 * A change of text takes it through the text batch (<linux/text_batch.h>),
 * after the hotplug lock and before text_mutex.
 *
 * Context: process context; may sleep.
 */
void jump_label_lock(void);

/**
 * jump_label_unlock() - drop jump_label_mutex
 *
 * Context: the caller holds jump_label_mutex.
 */
void jump_label_unlock(void);

/**
 * jump_label_text_reserved() - whether a range of text holds a site
 * @start: the first byte of the range
 * @end:   its last byte (inclusive)
 *
 * Context: process context; takes jump_label_mutex.
 * Return: 1 if a live site of the kernel or a module overlaps
 * [@start, @end], else 0.
 */
int jump_label_text_reserved(void *start, void *end);

/**
 * static_key_fast_inc_not_disabled() - take a reference on an enabled key
 * @key: the key
 *
 * Increments @key's count without any lock if it is enabled (count > 0);
 * changes no code.
 *
 * Context: any context.
 * Return: true if the count was incremented, false if @key was disabled,
 * being enabled, at INT_MAX, or refused (a sealed key: WARNed).
 */
bool static_key_fast_inc_not_disabled(struct static_key *key);

/**
 * static_key_slow_inc() - take a reference on a key, enabling it at 0
 * @key: the key
 *
 * Increments @key's count; the 0 -> 1 transition patches every site of
 * the key, kernel and modules, in one text batch.
 *
 * Context: process context; may sleep; takes the hotplug lock and
 * jump_label_mutex when it patches (static_key_slow_inc_cpuslocked()
 * expects the hotplug lock held).
 * Return: true if the count was incremented; false, after a WARN naming
 * the key, at INT_MAX, on a negative count or on a sealed key.
 */
bool static_key_slow_inc(struct static_key *key);

/**
 * static_key_slow_inc_cpuslocked() - static_key_slow_inc(), hotplug lock held
 * @key: the key
 *
 * Context: process context, the caller holding the CPU hotplug lock; a
 * caller that does not is named in a WARN, once per key, and the call
 * takes the lock itself.
 * Return: as static_key_slow_inc().
 */
bool static_key_slow_inc_cpuslocked(struct static_key *key);

/**
 * static_key_slow_dec() - drop a reference on a key, disabling it at 0
 * @key: the key
 *
 * Decrements @key's count; the 1 -> 0 transition patches every site. A
 * dec at 0 WARNs once per key, naming it (and a disable that took an
 * inc's count, if one did), and changes nothing.
 *
 * Context: process context; may sleep; takes the hotplug lock and
 * jump_label_mutex when it may patch.
 */
void static_key_slow_dec(struct static_key *key);

/**
 * static_key_slow_dec_cpuslocked() - static_key_slow_dec(), hotplug lock held
 * @key: the key
 *
 * Context: as static_key_slow_inc_cpuslocked().
 */
void static_key_slow_dec_cpuslocked(struct static_key *key);

/**
 * static_key_enable() - enable a key used as a boolean
 * @key: the key
 *
 * Sets a disabled @key's count to 1 and patches its sites, in one text
 * batch: the count is -1 while the sites change. An enabled key at 1 is
 * left; a key with inc references (count > 1) or a negative count WARNs
 * once and is left.
 *
 * Context: process context; may sleep; takes the hotplug lock,
 * jump_label_mutex and, to patch, text_mutex.
 */
void static_key_enable(struct static_key *key);

/**
 * static_key_enable_cpuslocked() - static_key_enable(), hotplug lock held
 * @key: the key
 *
 * Context: as static_key_slow_inc_cpuslocked().
 */
void static_key_enable_cpuslocked(struct static_key *key);

/**
 * static_key_disable() - disable a key used as a boolean
 * @key: the key
 *
 * Sets an enabled @key's count from 1 to 0 and patches its sites. A key
 * with inc references (count > 1) or a negative count WARNs once and is
 * left.
 *
 * Context: as static_key_enable().
 */
void static_key_disable(struct static_key *key);

/**
 * static_key_disable_cpuslocked() - static_key_disable(), hotplug lock held
 * @key: the key
 *
 * Context: as static_key_slow_inc_cpuslocked().
 */
void static_key_disable_cpuslocked(struct static_key *key);

/**
 * static_key_enable_queued() - queue an enable into the task's batch
 * @key: the key
 *
 * Records what static_key_enable() would do, for the next
 * static_key_apply_queued(): many keys (and static calls,
 * static_call_update_queued()) are then applied in one batch, three sync
 * rounds in all. The queue is the calling task's from its first _queued
 * call to apply, holding the hotplug lock (or the caller's) meanwhile.
 *
 * Context: process context; may sleep.
 */
void static_key_enable_queued(struct static_key *key);

/**
 * static_key_disable_queued() - queue a disable into the task's batch
 * @key: the key
 *
 * Context: as static_key_enable_queued().
 */
void static_key_disable_queued(struct static_key *key);

/**
 * static_key_apply_queued() - apply the task's queued keys and calls
 *
 * Replays the queue on the keys' counts as the plain calls would, checks
 * every site that must change, and writes them all in one text batch, or
 * none: a site holding unexpected bytes is named and nothing changes.
 *
 * Context: process context; may sleep; takes jump_label_mutex,
 * static_call_mutex and text_mutex.
 * Return: 0 (also when nothing is queued), -EINVAL (a site refused) or
 * -ENOMEM (the queue could not grow); the queue is emptied either way.
 */
int static_key_apply_queued(void);

/**
 * static_key_drop_queued() - forget what the calling task queued
 *
 * Empties the task's queue and drops its locks: nothing changes.
 *
 * Context: process context.
 */
void static_key_drop_queued(void);

/**
 * static_key_count() - a key's count
 * @key: the key
 *
 * Context: any context.
 * Return: the count, 1 while the first enable patches (the count is -1
 * inside jump_label_mutex then).
 */
static inline int static_key_count(struct static_key *key)
{
	int n = atomic_read(&key->enabled);

	return n < 0 ? 1 : n; /* -1: the first enable is in progress */
}

/**
 * __static_key_enabled() - whether a struct static_key is enabled
 * @key: the key
 *
 * Context: any context.
 * Return: true if @key's count is above 0 (or its first enable patches).
 */
static inline bool __static_key_enabled(struct static_key *key)
{
	return static_key_count(key) > 0;
}

/* Accepts a struct static_key, static_key_true or static_key_false. */
#define static_key_enabled(x)                                              \
	({                                                                 \
		if (!__same_type(*(x), struct static_key) &&               \
		    !__same_type(*(x), struct static_key_true) &&          \
		    !__same_type(*(x), struct static_key_false))           \
			____wrong_branch_error();                          \
		__static_key_enabled((struct static_key *)(x));            \
	})

#define static_branch_inc(x) static_key_slow_inc(&(x)->key)
#define static_branch_dec(x) static_key_slow_dec(&(x)->key)
#define static_branch_inc_cpuslocked(x) static_key_slow_inc_cpuslocked(&(x)->key)
#define static_branch_dec_cpuslocked(x) static_key_slow_dec_cpuslocked(&(x)->key)
#define static_branch_enable(x) static_key_enable(&(x)->key)
#define static_branch_disable(x) static_key_disable(&(x)->key)
#define static_branch_enable_cpuslocked(x) static_key_enable_cpuslocked(&(x)->key)
#define static_branch_disable_cpuslocked(x) static_key_disable_cpuslocked(&(x)->key)

/*
 * The old API, kept for old callers exactly as Linux keeps it: a bare
 * struct static_key, initialized with STATIC_KEY_INIT_TRUE/FALSE and tested
 * with static_key_true()/static_key_false(). Linux documents it as
 * deprecated without marking it, so Linux code (and out-of-tree modules)
 * using it build under -Werror here too. New in-tree code uses the typed
 * keys and static_branch_likely()/unlikely(): scripts/check_old_api.py
 * (run by make test) refuses the old names outside the files allowed to
 * test them.
 */
#define STATIC_KEY_INIT_TRUE __STATIC_KEY_INIT_TRUE
#define STATIC_KEY_INIT_FALSE __STATIC_KEY_INIT_FALSE
#define STATIC_KEY_INIT STATIC_KEY_INIT_FALSE
#define jump_label_enabled static_key_enabled

#ifdef CONFIG_JUMP_LABEL
static __always_inline bool static_key_false(struct static_key *key)
{
	return arch_static_branch(key, false);
}

static __always_inline bool static_key_true(struct static_key *key)
{
	return !arch_static_branch(key, true);
}
#else
static __always_inline bool static_key_false(struct static_key *key)
{
	return unlikely(atomic_read(&key->enabled) > 0);
}

static __always_inline bool static_key_true(struct static_key *key)
{
	return likely(atomic_read(&key->enabled) > 0);
}
#endif

#endif /* _LINUX_JUMP_LABEL_H */
