/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_STATIC_CALL_H
#define _LINUX_STATIC_CALL_H

/*
 * Static calls, with Linux's API (Documentation/static-calls.rst): a call
 * through a function pointer whose every call site is patched to call the
 * current target directly.
 *
 *   DECLARE_STATIC_CALL(name, func);	 the call, of func's type
 *   DEFINE_STATIC_CALL(name, func);	 ... set to func
 *   DEFINE_STATIC_CALL_NULL(name, func); ... set to nothing (a NOP)
 *   DEFINE_STATIC_CALL_RET0(name, func); ... set to "return 0"
 *   static_call(name)(args...);		 the call
 *   static_call_cond(name)(args...);	 the call of a void function,
 *					 which may be NULL
 *   static_call_mod(name)(args...);	 the call, from code that sees the
 *					 trampoline only
 *   __static_call(name), __raw_static_call(name): static_call(name)
 *   static_call_update(name, func);	 retargets every site; sleeps
 *   static_call_query(name);		 the current target
 *   EXPORT_STATIC_CALL(_GPL)(name);	 key and trampoline, for modules
 *   EXPORT_STATIC_CALL_TRAMP(_GPL)(name); the trampoline only: modules
 *					 may call, not update
 *
 * With CONFIG_STATIC_CALL (x86's HAVE_STATIC_CALL_INLINE) the compiler
 * emits "call __SCT__name" (the trampoline, a jmp to the target); the
 * build finds those calls and the kernel patches each to a direct call
 * (a 5-byte NOP for NULL, "mov $0, %eax" for __static_call_return0). An
 * update patches every site of the call, in the kernel and in every
 * module, as one batch of the int3 engine: three sync rounds.
 * Without it, static_call() is an indirect call through key.func.
 *
 * A function of another type is a build error; static_call_update() of
 * NULL on a call not defined _NULL, or from interrupt context, WARNs once
 * naming the call and changes nothing.
 */
#include <linux/compiler.h>
#include <linux/static_call_types.h>
#include <linux/export.h>

extern bool static_call_initialized;

/**
 * __static_call_return0() - the target of DEFINE_STATIC_CALL_RET0()
 *
 * Context: any context.
 * Return: 0.
 */
long __static_call_return0(void);

/**
 * __static_call_nop() - static_call_cond()'s target for NULL
 *
 * Without CONFIG_STATIC_CALL, static_call_cond() of a NULL call calls
 * this function, which does nothing.
 *
 * Context: any context.
 */
void __static_call_nop(void);

/**
 * __static_call_update() - set a static call's target
 * @key:   the call's key
 * @tramp: its trampoline (NULL without CONFIG_STATIC_CALL)
 * @func:  the new target (NULL: none, for a _NULL call only)
 *
 * Checks that the trampoline and every live site, the kernel's and every
 * module's, hold the old target's instruction and reach @func, then
 * writes them all in one text batch (three sync rounds). A refusal writes
 * nothing and says why (a WARN, or a line naming the site and the call).
 * static_call_update(name, func) is the typed form.
 *
 * Context: process context; may sleep; takes the hotplug lock,
 * static_call_mutex and text_mutex.
 * Return: 0; -EINVAL (NULL on a call not _NULL, a site holding unexpected
 * bytes), -EPERM (interrupt context) or -ERANGE (a site out of a direct
 * call's reach).
 */
int __static_call_update(struct static_call_key *key, void *tramp,
			 void *func);

struct text_batch;

/**
 * __static_call_refuse() - the WARNing checks of an update
 * @key:  the call's key
 * @func: the target asked for
 *
 * WARNs once per call and kind on an update from interrupt context or of
 * NULL on a call not defined _NULL.
 *
 * Context: any context.
 * Return: true if the update must be refused.
 */
bool __static_call_refuse(struct static_call_key *key, void *func);

/**
 * __static_call_check() - check the sites of an update, writing nothing
 * @key:  the call's key
 * @func: the new target
 *
 * The first half of an update, for batches of many keys and calls
 * (static_call_update_queued()): checks that every live site holds the
 * current target's instruction and reaches @func.
 *
 * Context: static_call_mutex held (a text batch's TEXT_BATCH_CALLS).
 * Return: 0, or -EINVAL / -ERANGE after a line naming the site and call.
 */
int __static_call_check(struct static_call_key *key, void *func);

/**
 * __static_call_queue_checked() - queue an update's sites into a batch
 * @b:    the text batch, holding static_call_mutex and text_mutex
 * @key:  the call's key, checked by __static_call_check()
 * @func: the new target
 *
 * The second half: queues @func's instruction at every live site into
 * @b and sets the target; the sites change at @b's apply.
 *
 * Context: the batch's locks held.
 */
void __static_call_queue_checked(struct text_batch *b,
				 struct static_call_key *key, void *func);
extern struct mutex static_call_mutex;

/**
 * static_call_nr_sites() - the sites an update of a call patches
 * @key: the call's key
 *
 * Context: process context; takes static_call_mutex.
 * Return: the number of live sites, the kernel's and modules', and the
 * trampoline.
 */
unsigned int static_call_nr_sites(struct static_call_key *key);

/**
 * static_call_site_addr() - a call's site, by its place in an update
 * @key: the call's key
 * @i:   the index, the trampoline not counted
 *
 * Context: process context; takes static_call_mutex.
 * Return: the address of site @i in update order, or NULL past the last.
 */
void *static_call_site_addr(struct static_call_key *key, unsigned int i);

struct module;

/**
 * static_call_for_each() - call a function for every static call
 * @fn:  called with each call's key and module (NULL: the kernel's)
 * @arg: passed to @fn
 *
 * The kernel's calls, then each loaded module's. @fn must not take
 * module_mutex.
 *
 * Context: process context; takes module_mutex.
 */
void static_call_for_each(void (*fn)(struct static_call_key *key,
				     struct module *mod, void *arg),
			  void *arg);

/**
 * static_call_known_targets() - the targets a call is known to take
 * @key:   the call's key
 * @funcs: filled with up to @max targets
 * @max:   the room in @funcs
 *
 * A call's first target and every one it was set to since, for the
 * console (static_call_retarget()).
 *
 * Context: process context; takes static_call_mutex.
 * Return: the number of targets written.
 */
int static_call_known_targets(struct static_call_key *key, void **funcs,
			      int max);

/**
 * static_call_retarget() - set a call, found by name, to a known target
 * @name: the call's name
 * @func: one of its known targets
 *
 * Context: process context; may sleep; takes module_mutex, then as
 * __static_call_update().
 * Return: 0, -ENOENT (no such call), -EINVAL (not a known target), or the
 * update's error.
 */
int static_call_retarget(const char *name, void *func);

/**
 * static_call_text_reserved() - whether a range of text holds a site
 * @start: the range's first byte
 * @end:   the byte after its last
 *
 * Context: process context; takes static_call_mutex.
 * Return: nonzero if [@start, @end) holds a byte of a kernel call site.
 */
int static_call_text_reserved(void *start, void *end);

/**
 * static_call_init() - link the kernel's sites and set them to their targets
 *
 * Points each key at its run of the sorted site table and writes every
 * site whose call is not on its trampoline, in one text batch.
 *
 * Context: boot, once; takes the text batch's locks.
 */
void static_call_init(void);

/*
 * The type check: func must be a pointer to the call's function type (or
 * NULL). An error even where incompatible pointers are only a warning.
 */
#define __static_call_typed(name, func)                                        \
	({                                                                     \
		_Pragma("GCC diagnostic push") _Pragma(                        \
			"GCC diagnostic error \"-Wincompatible-pointer-types\"") \
			typeof(&STATIC_CALL_TRAMP(name)) __F = (func);         \
		_Pragma("GCC diagnostic pop") __F;                             \
	})

#define static_call_query(name) (READ_ONCE(STATIC_CALL_KEY(name).func))
#define static_call_query_key(key) (READ_ONCE((key)->func))

#ifdef CONFIG_STATIC_CALL
#include <asm/static_call.h>

#define STATIC_CALL_TRAMP_ADDR(name) ((void *)&STATIC_CALL_TRAMP(name))

#define DEFINE_STATIC_CALL(name, _func)                                        \
	DECLARE_STATIC_CALL(name, _func);                                      \
	struct static_call_key STATIC_CALL_KEY(name) = __STATIC_CALL_KEY_INIT( \
		name, _func, false, &STATIC_CALL_TRAMP(name));                 \
	ARCH_DEFINE_STATIC_CALL_TRAMP(name, _func)

#define DEFINE_STATIC_CALL_NULL(name, _func)                                   \
	DECLARE_STATIC_CALL(name, _func);                                      \
	struct static_call_key STATIC_CALL_KEY(name) = __STATIC_CALL_KEY_INIT( \
		name, NULL, true, &STATIC_CALL_TRAMP(name));                   \
	ARCH_DEFINE_STATIC_CALL_NULL_TRAMP(name)

#define DEFINE_STATIC_CALL_RET0(name, _func)                                   \
	DECLARE_STATIC_CALL(name, _func);                                      \
	struct static_call_key STATIC_CALL_KEY(name) = __STATIC_CALL_KEY_INIT( \
		name, __static_call_return0, false,                            \
		&STATIC_CALL_TRAMP(name));                                     \
	ARCH_DEFINE_STATIC_CALL_RET0_TRAMP(name)

#define static_call(name) (&STATIC_CALL_TRAMP(name))
#define static_call_mod(name) (&STATIC_CALL_TRAMP(name))
#define static_call_cond(name) (void)static_call(name)

#define EXPORT_STATIC_CALL(name)                                               \
	EXPORT_SYMBOL(STATIC_CALL_KEY(name));                                  \
	EXPORT_SYMBOL(STATIC_CALL_TRAMP(name))
#define EXPORT_STATIC_CALL_GPL(name)                                           \
	EXPORT_SYMBOL_GPL(STATIC_CALL_KEY(name));                              \
	EXPORT_SYMBOL_GPL(STATIC_CALL_TRAMP(name))
#define EXPORT_STATIC_CALL_TRAMP(name) EXPORT_SYMBOL(STATIC_CALL_TRAMP(name))
#define EXPORT_STATIC_CALL_TRAMP_GPL(name)                                     \
	EXPORT_SYMBOL_GPL(STATIC_CALL_TRAMP(name))

#else /* !CONFIG_STATIC_CALL: an indirect call through key.func */

#define STATIC_CALL_TRAMP_ADDR(name) NULL

/*
 * Each key is still listed in .static_call_tramp_key (for the console and
 * the known targets), with a trampoline offset of 0: none.
 */
#define __STATIC_CALL_KEY_ENTRY(name)                                          \
	asm(".pushsection .static_call_tramp_key, \"a\"\n\t"                   \
	    ".balign 4\n\t"                                                    \
	    ".long 0\n\t"                                                      \
	    ".long " STATIC_CALL_KEY_STR(name) " - .\n\t"                      \
	    ".popsection\n")

#define DEFINE_STATIC_CALL(name, _func)                                        \
	DECLARE_STATIC_CALL(name, _func);                                      \
	struct static_call_key STATIC_CALL_KEY(name) =                         \
		__STATIC_CALL_KEY_INIT(name, _func, false, NULL);              \
	__STATIC_CALL_KEY_ENTRY(name)

#define DEFINE_STATIC_CALL_NULL(name, _func)                                   \
	DECLARE_STATIC_CALL(name, _func);                                      \
	struct static_call_key STATIC_CALL_KEY(name) =                         \
		__STATIC_CALL_KEY_INIT(name, NULL, true, NULL);                \
	__STATIC_CALL_KEY_ENTRY(name)

#define DEFINE_STATIC_CALL_RET0(name, _func)                                   \
	DECLARE_STATIC_CALL(name, _func);                                      \
	struct static_call_key STATIC_CALL_KEY(name) = __STATIC_CALL_KEY_INIT( \
		name, __static_call_return0, false, NULL);                     \
	__STATIC_CALL_KEY_ENTRY(name)

#define static_call(name)                                                      \
	((typeof(&STATIC_CALL_TRAMP(name)))READ_ONCE(                          \
		STATIC_CALL_KEY(name).func))
#define static_call_mod(name) static_call(name)

static inline void *__static_call_cond_func(void *func)
{
	return func ? func : (void *)__static_call_nop;
}

#define static_call_cond(name)                                                 \
	(void)((typeof(&STATIC_CALL_TRAMP(name)))__static_call_cond_func(      \
		READ_ONCE(STATIC_CALL_KEY(name).func)))

/* There is no trampoline: a module calling needs the key. */
#define EXPORT_STATIC_CALL(name) EXPORT_SYMBOL(STATIC_CALL_KEY(name))
#define EXPORT_STATIC_CALL_GPL(name) EXPORT_SYMBOL_GPL(STATIC_CALL_KEY(name))
#define EXPORT_STATIC_CALL_TRAMP(name) EXPORT_STATIC_CALL(name)
#define EXPORT_STATIC_CALL_TRAMP_GPL(name) EXPORT_STATIC_CALL_GPL(name)

#endif /* CONFIG_STATIC_CALL */

/* Linux's lower-level spellings of static_call(), the same call here. */
#define __static_call(name) static_call(name)
#define __raw_static_call(name) static_call(name)

/**
 * __static_call_update_queued() - queue an update into the task's batch
 * @key:  the call's key
 * @func: the new target
 *
 * Records the update for the next static_key_apply_queued()
 * (<linux/jump_label.h>), which writes it with every queued key and call
 * in one batch. static_call_update_queued(name, func) is the typed form;
 * a refusal of __static_call_refuse() WARNs and queues nothing.
 *
 * Context: process context; may sleep.
 */
void __static_call_update_queued(struct static_call_key *key, void *func);
#define static_call_update_queued(name, func)                                  \
	__static_call_update_queued(&STATIC_CALL_KEY(name),                    \
				    (void *)__static_call_typed(name, func))

#define static_call_update(name, func)                                       \
	__static_call_update(&STATIC_CALL_KEY(name),                           \
			     STATIC_CALL_TRAMP_ADDR(name),                     \
			     (void *)__static_call_typed(name, func))

#endif /* _LINUX_STATIC_CALL_H */
