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

/* The target of DEFINE_STATIC_CALL_RET0(): returns 0. */
long __static_call_return0(void);
/* static_call_cond()'s target for NULL without CONFIG_STATIC_CALL. */
void __static_call_nop(void);

/*
 * Sets key's target: every site and the trampoline, in one batch, unless
 * refused (a WARN or a line said why): 0, -EINVAL (NULL on a call not
 * _NULL, a site holding unexpected bytes), -EPERM (interrupt context),
 * -ERANGE (a site out of a direct call's reach).
 */
int __static_call_update(struct static_call_key *key, void *tramp,
			 void *func);
/*
 * The halves of an update, for batches of many keys and calls
 * (static_call_update_queued(), <linux/jump_label.h>): refuse() is the
 * WARNing checks of __static_call_update() (true: refused); in a text
 * batch holding static_call_mutex and text_mutex (<linux/text_batch.h>),
 * check() (0 or -errno, after a line) then queue_checked() into @b.
 */
struct text_batch;
bool __static_call_refuse(struct static_call_key *key, void *func);
int __static_call_check(struct static_call_key *key, void *func);
void __static_call_queue_checked(struct text_batch *b,
				 struct static_call_key *key, void *func);
extern struct mutex static_call_mutex;

/* The sites an update of key patches, its trampoline included. */
unsigned int static_call_nr_sites(struct static_call_key *key);
/* Its site i in update order (the trampoline, key->tramp, not counted), or NULL. */
void *static_call_site_addr(struct static_call_key *key, unsigned int i);
/*
 * Introspection (the console, tests): every call, the kernel's then each
 * module's (mod NULL for the kernel), under module_mutex, which fn must
 * not take; the targets a call is known to take (its first and every one
 * it was set to), up to max into funcs, how many. static_call_retarget()
 * sets the call called name to one of its known targets: 0, -ENOENT (no
 * such call), -EINVAL (not a known target), or the update's error.
 */
struct module;
void static_call_for_each(void (*fn)(struct static_call_key *key,
				     struct module *mod, void *arg),
			  void *arg);
int static_call_known_targets(struct static_call_key *key, void **funcs,
			      int max);
int static_call_retarget(const char *name, void *func);
/* Nonzero if [start, end) holds a byte of a static call site. */
int static_call_text_reserved(void *start, void *end);
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

/* Queued into the next static_key_apply_queued() (<linux/jump_label.h>). */
void __static_call_update_queued(struct static_call_key *key, void *func);
#define static_call_update_queued(name, func)                                  \
	__static_call_update_queued(&STATIC_CALL_KEY(name),                    \
				    (void *)__static_call_typed(name, func))

#define static_call_update(name, func)                                       \
	__static_call_update(&STATIC_CALL_KEY(name),                           \
			     STATIC_CALL_TRAMP_ADDR(name),                     \
			     (void *)__static_call_typed(name, func))

#endif /* _LINUX_STATIC_CALL_H */
