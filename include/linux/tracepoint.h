/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_TRACEPOINT_H
#define _LINUX_TRACEPOINT_H

/*
 * Tracepoints (kernel/tracepoint.c, Documentation/tracepoints.rst): named
 * hooks in the kernel's own code that cost one disabled static branch
 * until a probe is attached.
 *
 *   In a header:   DECLARE_TRACE(foo, TP_PROTO(int a, struct bar *b),
 *                                TP_ARGS(a, b));
 *   In one .c:     DEFINE_TRACE(foo, TP_PROTO(int a, struct bar *b),
 *                               TP_ARGS(a, b));
 *   At the site:   trace_foo(x, compute(y));
 *   A user:        register_trace_foo(my_probe, my_data);
 *                  with void my_probe(void *data, int a, struct bar *b)
 *
 * trace_foo(args) is a macro (from <generated/tracepoint_calls.h>, made by
 * scripts/gen_tracepoint_calls.py from every DECLARE_TRACE, TRACE_EVENT
 * and DEFINE_EVENT in the tree): a static_branch_unlikely() on the
 * tracepoint's own key, and behind it, under RCU, the tracepoint's static
 * call tp_func_foo(funcs[0].data, args). So while no probe is attached
 * the site is one NOP (CONFIG_JUMP_LABEL=y) and the arguments are not
 * evaluated at all. Linux's trace_foo() is an inline function and
 * evaluates them; __trace_foo() is that form here.
 *
 * The static call targets the one probe when there is exactly one (a
 * direct call of it, with its data), else the iterator __traceiter_foo(),
 * which ignores its first argument and runs every probe with its own
 * data. Retargeting keeps every call right (kernel/tracepoint.c):
 * to the iterator before a second probe is published, to a probe only
 * once no reader can hold an array whose first probe is another one.
 *
 * The probes are a NULL-terminated array, sorted by priority (highest
 * first, registration order among equals), that registration replaces
 * as a whole under RCU: __traceiter_foo() runs them inside
 * rcu_read_lock() (and rcu_read_unlock_sched(): tracepoints fire with
 * run-queue locks held) and never locks. The key is enabled when the first
 * probe arrives and disabled when the last one goes;
 * tracepoint_synchronize_unregister() returns once no CPU can still be
 * running a probe removed before the call.
 *
 * Every tracepoint is a struct tracepoint in the section __tracepoints
 * with a pointer to it in __tracepoints_ptrs: the kernel's are between
 * __start___tracepoints_ptrs and __stop___tracepoints_ptrs, and a module
 * carries its own section of the same name (tracepoint_module_coming()).
 */
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/jump_label.h>
#include <linux/list.h>
#include <linux/rcupdate.h>
#include <linux/static_call.h>
#include <linux/tracepoint-defs.h>
#include <linux/types.h>
#include <generated/tracepoint_calls.h>

struct module;

struct tracepoint_func {
	void *func;	/* void (*)(void *data, proto); NULL ends the array */
	void *data;
	int prio;
};

struct tracepoint {
	const char *name;
	struct static_key_false key;	/* enabled while funcs is not NULL */
	int (*regfunc)(void);		/* before the first probe, or NULL */
	void (*unregfunc)(void);	/* after the last probe, or NULL */
	struct tracepoint_func *funcs;	/* RCU; written under tracepoints_mutex */
	/* tp_func_<name>: the one probe, or the iterator. */
	struct static_call_key *static_call_key;
	void *static_call_tramp;
	void *iterator;
};

#define TRACEPOINT_DEFAULT_PRIO 10

/*
 * 0, or -EINVAL (no probe), -EEXIST (this probe with this data is there
 * already), -ENOMEM, or regfunc's error. May sleep; takes the CPU hotplug
 * lock and tracepoints_mutex, then (to flip the key) jump_label_mutex.
 */
int tracepoint_probe_register(struct tracepoint *tp, void *probe, void *data);
int tracepoint_probe_register_prio(struct tracepoint *tp, void *probe,
				   void *data, int prio);
/*
 * 0 or -ENOENT. Never fails for want of memory: the probe is then
 * replaced in place by a stub that does nothing. The probe may still be
 * running on other CPUs when this returns: see below.
 */
int tracepoint_probe_unregister(struct tracepoint *tp, void *probe,
				void *data);

/*
 * Many tracepoints, one batch: a probe registered on (or unregistered
 * from) each of n distinct tracepoints, every key that flips and every
 * static call that is retargeted patched in one static_key_apply_queued()
 * batch (three sync rounds for any n, kernel/tracepoint.c says when a
 * second batch is needed). The caller fills tp, probe, data and prio;
 * the rest is the batch's. All or nothing: 0, or an error (-EINVAL: a NULL
 * probe, a tracepoint twice, a site with unexpected bytes; -EEXIST,
 * -ENOENT, -ENOMEM, a regfunc's error) said in one line naming the
 * tracepoint or the site, with every tracepoint as it was.
 */
struct tracepoint_batch_probe {
	struct tracepoint *tp;
	void *probe;
	void *data;
	int prio;
	/* The batch's own. */
	struct tracepoint_func *old, *new;
	int victim;
	unsigned int flags;
};

int tracepoint_probe_register_batch(struct tracepoint_batch_probe *b,
				    unsigned int n);
int tracepoint_probe_unregister_batch(struct tracepoint_batch_probe *b,
				      unsigned int n);

/* Waits until no CPU can be inside a probe unregistered before the call. */
static inline void tracepoint_synchronize_unregister(void)
{
	synchronize_rcu();
}

/* Calls fct for each tracepoint of the kernel and of the loaded tables. */
void for_each_tracepoint(void (*fct)(struct tracepoint *tp, void *priv),
			 void *priv);
/* The kernel's own tracepoints only, as in Linux. */
void for_each_kernel_tracepoint(void (*fct)(struct tracepoint *tp,
					    void *priv),
				void *priv);
/* The tracepoint called name (kernel or loaded tables), or NULL. */
struct tracepoint *tracepoint_find(const char *name);

static inline bool tracepoint_enabled(struct tracepoint *tp)
{
	return static_key_enabled(&tp->key);
}

/*
 * The slot for tracepoints outside the image (a module's
 * __tracepoints_ptrs section, struct tracepoint_table in
 * <linux/tracepoint-defs.h>): the loader adds the module's table before
 * its init runs, and removes it after its exit or a failed init.
 * Removing a table whose tracepoints still have probes WARNs naming each
 * such tracepoint and removes its probes (key disabled, arrays freed
 * after a grace period): the module's sites and struct tracepoint are
 * about to go. Both take tracepoints_mutex.
 */
void tracepoint_module_coming(struct tracepoint_table *table);
void tracepoint_module_going(struct tracepoint_table *table);

/*
 * The unload safety net: removes every probe whose function lies in
 * [start, start + size) (a module's text about to be freed) from every
 * tracepoint, the kernel's and the loaded tables', with a WARN naming the
 * probe, the tracepoint and owner; then waits until no CPU can still be
 * running one. Returns how many it removed. The caller may hold
 * module_mutex (it comes before the hotplug lock).
 */
unsigned int tracepoint_remove_probes_within(unsigned long start,
					     unsigned long size,
					     const char *owner);

#define PARAMS(args...) args
#define TP_PROTO(args...) args
#define TP_ARGS(args...) args

/*
 * The call of a tracepoint: the body of every trace_<name>() macro. The
 * arguments are only evaluated behind the branch.
 */
#define __trace_call(name, args...)                                      \
	do {                                                             \
		if (static_branch_unlikely(&__tracepoint_##name.key))     \
			__trace_static_call(name, ##args);               \
	} while (0)

/*
 * The same call with nothing of the probes' inline: behind the branch, a
 * call of the tracepoint's iterator (which runs the probes under RCU),
 * declared cold here so that GCC moves that call to the function's .cold
 * part. A tracepoint in a hot path then adds its disabled site to its
 * function and nothing else: not the static call and RCU reader that
 * __trace_call() inlines, which would move the code after it, and its
 * page crossings, that the icount benchmarks count (the patch engine's
 * and the cross-CPU calls' events use it).
 */
#define __trace_call_outline(name, args...)                              \
	do {                                                             \
		extern typeof(__traceiter_##name) __traceiter_##name     \
			__cold;                                          \
		if (static_branch_unlikely(&__tracepoint_##name.key))     \
			__traceiter_##name(NULL, ##args);                \
	} while (0)

#define __trace_static_call(name, args...)                                \
	do {                                                              \
		struct tracepoint_func *__tf;                             \
									  \
		rcu_read_lock();                                          \
		__tf = rcu_dereference(__tracepoint_##name.funcs);        \
		if (likely(__tf))                                         \
			static_call(tp_func_##name)(__tf->data, ##args);  \
		rcu_read_unlock_sched();                                  \
	} while (0)

#define __DECLARE_TRACE(name, proto, args, data_proto)                      \
	extern struct tracepoint __tracepoint_##name;                       \
	void __traceiter_##name(data_proto);                                \
	DECLARE_STATIC_CALL(tp_func_##name, __traceiter_##name);            \
	static __always_inline void __trace_##name(proto)                   \
	{                                                                   \
		__trace_call(name, args);                                   \
	}                                                                   \
	static inline bool trace_##name##_enabled(void)                     \
	{                                                                   \
		return static_branch_unlikely(&__tracepoint_##name.key);    \
	}                                                                   \
	static inline int register_trace_##name(void (*probe)(data_proto),  \
						void *data)                 \
	{                                                                   \
		return tracepoint_probe_register(&__tracepoint_##name,      \
						 (void *)probe, data);      \
	}                                                                   \
	static inline int register_trace_prio_##name(                       \
		void (*probe)(data_proto), void *data, int prio)            \
	{                                                                   \
		return tracepoint_probe_register_prio(                      \
			&__tracepoint_##name, (void *)probe, data, prio);   \
	}                                                                   \
	static inline int unregister_trace_##name(void (*probe)(data_proto), \
						  void *data)               \
	{                                                                   \
		return tracepoint_probe_unregister(&__tracepoint_##name,    \
						   (void *)probe, data);    \
	}                                                                   \
	static inline void check_trace_callback_type_##name(                \
		void (*cb)(data_proto))                                     \
	{                                                                   \
	}

/*
 * The definition: the struct, its name, and the iterator the sites call.
 * __DEFINE_TRACE_BODY leaves out the __tracepoints_ptrs entry (a table
 * that is not the kernel's lists its tracepoints itself).
 */
#define __DEFINE_TRACE_BODY(_name, _reg, _unreg, proto, args)                \
	static const char __tpstrtab_##_name[] __used                         \
		__section("__tracepoints_strings") __aligned(1) = #_name;      \
	struct tracepoint __tracepoint_##_name __used                         \
		__section("__tracepoints") __aligned(8) = {                    \
			.name = __tpstrtab_##_name,                             \
			.key = { .key = __STATIC_KEY_INIT_FALSE },              \
			.regfunc = _reg,                                        \
			.unregfunc = _unreg,                                    \
			.funcs = NULL,                                          \
			.static_call_key = &STATIC_CALL_KEY(tp_func_##_name),   \
			.static_call_tramp = STATIC_CALL_TRAMP_ADDR(tp_func_##_name), \
			.iterator = (void *)__traceiter_##_name,                \
		};                                                              \
	__STATIC_KEY_DEF(__tracepoint_##_name, &__tracepoint_##_name.key.key, \
			 1, 0);                                                 \
	void __traceiter_##_name(void *__data, proto)                         \
	{                                                                     \
		struct tracepoint_func *__it;                                 \
                                                                              \
		rcu_read_lock();                                              \
		__it = rcu_dereference(__tracepoint_##_name.funcs);           \
		if (__it) {                                                   \
			do {                                                  \
				((void (*)(void *, proto))__it->func)(        \
					__it->data, args);                    \
			} while ((++__it)->func);                             \
		}                                                             \
		rcu_read_unlock_sched();                                      \
	}                                                                     \
	DEFINE_STATIC_CALL(tp_func_##_name, __traceiter_##_name);

#define DEFINE_TRACE_FN(_name, _reg, _unreg, proto, args)                  \
	__DEFINE_TRACE_BODY(_name, _reg, _unreg, PARAMS(proto), PARAMS(args)) \
	static struct tracepoint *const __tracepoint_ptr_##_name __used     \
		__section("__tracepoints_ptrs") __aligned(8) =               \
			&__tracepoint_##_name;

#define DEFINE_TRACE(name, proto, args) \
	DEFINE_TRACE_FN(name, NULL, NULL, PARAMS(proto), PARAMS(args))

/*
 * What a module needs of a kernel tracepoint: its struct, to register
 * probes (register_trace_<name>()), and its iterator, to fire it
 * (trace_<name>()). GPL-only, as in Linux.
 */
#define EXPORT_TRACEPOINT_SYMBOL_GPL(name)          \
	EXPORT_SYMBOL_GPL(__tracepoint_##name); \
	EXPORT_SYMBOL_GPL(__traceiter_##name);  \
	EXPORT_STATIC_CALL_GPL(tp_func_##name)

extern struct tracepoint *const __start___tracepoints_ptrs[];
extern struct tracepoint *const __stop___tracepoints_ptrs[];

#endif /* _LINUX_TRACEPOINT_H */

/*
 * Outside the guard: <trace/define_trace.h> redefines these macros while
 * it reads an event header again, then includes this file to get the
 * declaring ones back.
 *
 * TRACE_EVENT(name, proto, args, struct, assign, print) and its class
 * form are tracepoints with a record for the tracer
 * (<trace/trace_events.h>); here, and for every file but the one that
 * defines CREATE_TRACE_POINTS, they only declare the tracepoint.
 */
#ifndef DECLARE_TRACE
#define DECLARE_TRACE(name, proto, args)                   \
	__DECLARE_TRACE(name, PARAMS(proto), PARAMS(args), \
			PARAMS(void *__data, proto))
#endif

#ifndef TRACE_EVENT
#define DECLARE_EVENT_CLASS(name, proto, args, tstruct, assign, print)
#define DEFINE_EVENT(template, name, proto, args) \
	DECLARE_TRACE(name, PARAMS(proto), PARAMS(args))
#define TRACE_EVENT(name, proto, args, struct, assign, print) \
	DECLARE_TRACE(name, PARAMS(proto), PARAMS(args))
#endif
