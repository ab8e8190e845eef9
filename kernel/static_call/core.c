// SPDX-License-Identifier: GPL-2.0
/*
 * Static calls (<linux/static_call.h>, Documentation/static-calls.rst).
 *
 * The build lists every site of the kernel image in __static_call_sites,
 * sorted by trampoline (scripts/static_call_table.c); a module's sites are
 * found in its relocations at load (module.c). Each site is
 * born calling its trampoline, which jumps to the target:
 *
 *   1. static_call_init() points each key at its run of the table and
 *      patches every site to the key's target, in one batch;
 *   2. a module's sites join their keys (on key->mods) and are patched to
 *      the targets before its init, in one batch; they leave with it;
 *   3. __static_call_update() checks every site and the trampoline hold
 *      the old target's instruction, then queues the new one for all of
 *      them, kernel and modules, and applies one text batch
 *      (<linux/text_batch.h>): three sync rounds.
 *
 * A check that fails names the site and the call and writes nothing.
 * Sites in freed init text (the kernel's or a module's) are skipped.
 */
#include <linux/kernel.h>
#include <linux/cpu.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/irqflags.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/preempt.h>
#include <linux/string.h>
#include <linux/static_call.h>
#include <linux/static_call_arch.h>
#include <linux/text_batch.h>
#include <linux/warn_record.h>
#include "internal.h"

DEFINE_MUTEX(static_call_mutex);
bool static_call_initialized;

extern const struct static_call_site __start_static_call_sites[];
extern const struct static_call_site __stop_static_call_sites[];
extern const struct static_call_tramp_key __start_static_call_tramp_key[];
extern const struct static_call_tramp_key __stop_static_call_tramp_key[];
extern char __init_text_begin[], __init_text_end[];

DEFINE_WARN_RECORD(static_call_warned, 32);
enum { SC_MISUSE_NULL, SC_MISUSE_IRQ };

long __static_call_return0(void)
{
	return 0;
}
EXPORT_SYMBOL_GPL(__static_call_return0);

/* Without CONFIG_STATIC_CALL only: a NULL call's trampoline returns. */
#ifndef CONFIG_STATIC_CALL
void __static_call_nop(void)
{
}
EXPORT_SYMBOL_GPL(__static_call_nop);
#endif

static void *sc_site_addr(const struct static_call_site *s)
{
	return (void *)((unsigned long)&s->addr + s->addr);
}

static unsigned long sc_site_tramp_raw(const struct static_call_site *s)
{
	return (unsigned long)&s->tramp + s->tramp;
}

static void *sc_site_tramp(const struct static_call_site *s)
{
	return (void *)(sc_site_tramp_raw(s) & ~STATIC_CALL_SITE_TAIL);
}

static bool sc_site_tail(const struct static_call_site *s)
{
	return sc_site_tramp_raw(s) & STATIC_CALL_SITE_TAIL;
}

static bool sc_kernel_site_gone(void *addr)
{
	return !init_mem_available && (char *)addr >= __init_text_begin &&
	       (char *)addr < __init_text_end;
}

/* NULL for a key without one (CONFIG_STATIC_CALL=n: offset 0). */
static void *sc_tk_tramp(const struct static_call_tramp_key *tk)
{
	return tk->tramp ? (void *)((unsigned long)&tk->tramp + tk->tramp) :
			   NULL;
}

static void *sc_tk_key(const struct static_call_tramp_key *tk)
{
	return (void *)((unsigned long)&tk->key + tk->key);
}

static struct static_call_key *
sc_find_tramp(const struct static_call_tramp_key *tk, unsigned int n,
	      void *tramp)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (sc_tk_tramp(&tk[i]) == tramp)
			return sc_tk_key(&tk[i]);
	return NULL;
}

/* Under module_mutex (or at boot). */
struct static_call_key *static_call_tramp_key(void *tramp)
{
	struct static_call_key *key;
	struct module *mod;

	key = sc_find_tramp(__start_static_call_tramp_key,
			    __stop_static_call_tramp_key -
				    __start_static_call_tramp_key,
			    tramp);
	if (key)
		return key;
	list_for_each_entry(mod, &modules, list) {
		key = sc_find_tramp(mod->static_call_tramp_keys,
				    mod->num_static_call_tramp_keys, tramp);
		if (key)
			return key;
	}
	return NULL;
}

/*
 * Calls fn on every live site of key: the kernel's with the trampoline
 * (a tail site) in address order, then each module's. Stops at the first
 * nonzero return.
 */
typedef int (*sc_site_fn)(struct static_call_key *key, void *addr, bool tail,
			  void *arg);

static int sc_for_each_site(struct static_call_key *key, sc_site_fn fn,
			    void *arg)
{
	struct static_call_mod *m;
	unsigned int i;
	int ret = 0;

	bool tramp_done = !key->tramp;

	for (i = 0; !ret && i < key->nr_sites; i++) {
		void *addr = sc_site_addr(&key->sites[i]);

		/* In address order: the batch then needs no sort. */
		if (!tramp_done && addr > key->tramp) {
			tramp_done = true;
			ret = fn(key, key->tramp, true, arg);
			if (ret)
				break;
		}
		if (!sc_kernel_site_gone(addr))
			ret = fn(key, addr, sc_site_tail(&key->sites[i]), arg);
	}
	if (!ret && !tramp_done)
		ret = fn(key, key->tramp, true, arg);
	for (m = key->mods; !ret && m; m = m->next)
		for (i = 0; !ret && i < m->nr; i++)
			ret = fn(key, m->sites[i].addr, m->sites[i].tail, arg);
	return ret;
}

bool __weak arch_static_call_reaches(void *addr, void *func)
{
	return true;
}

static int sc_check_one(struct static_call_key *key, void *addr, bool tail,
			void *func)
{
	if (!arch_static_call_reaches(addr, func)) {
		pr_err("static_call: site %pS of call %s cannot reach %pS: nothing written\n",
		       addr, key->name, func);
		return -ERANGE;
	}
	return arch_static_call_check_site(addr, key->func, tail, key->name);
}

/* A site into the batch, which __static_call_queue_checked() checked. */
static int sc_queue_one(struct static_call_key *key, void *addr, bool tail,
			void *func)
{
	__text_batch_queue_call(addr, func, tail);
	return 0;
}

static int sc_count_one(struct static_call_key *key, void *addr, bool tail,
			void *count)
{
	(*(unsigned int *)count)++;
	return 0;
}

struct sc_nth {
	unsigned int n;
	void *addr;
};

static int sc_nth_one(struct static_call_key *key, void *addr, bool tail,
		      void *arg)
{
	struct sc_nth *nth = arg;

	if (addr == key->tramp || nth->n--)
		return 0;
	nth->addr = addr;
	return 1;
}

void *static_call_site_addr(struct static_call_key *key, unsigned int i)
{
	struct sc_nth nth = { .n = i };

	mutex_lock(&static_call_mutex);
	sc_for_each_site(key, sc_nth_one, &nth);
	mutex_unlock(&static_call_mutex);
	return nth.addr;
}
EXPORT_SYMBOL_GPL(static_call_site_addr);

/* Sites of key, the trampoline included, that an update patches. */
unsigned int static_call_nr_sites(struct static_call_key *key)
{
	unsigned int n = 0;

	mutex_lock(&static_call_mutex);
	sc_for_each_site(key, sc_count_one, &n);
	mutex_unlock(&static_call_mutex);
	return n;
}
EXPORT_SYMBOL_GPL(static_call_nr_sites);

/*
 * The two halves of an update, in a text batch holding static_call_mutex
 * and text_mutex: check that every site of key holds its current target's
 * instruction and reaches func (0 or -errno after a line naming the site
 * and the call), then queue func's at every site and set key->func. Many
 * calls (and keys, kernel/jump_label/queued.c) are checked before any is
 * queued, so that a refusal queues nothing.
 */
static void sc_note_target(struct static_call_key *key, void *func);

int __static_call_check(struct static_call_key *key, void *func)
{
	lockdep_assert_held(&static_call_mutex);
	if (key->func == func)
		return 0;
	return sc_for_each_site(key, (sc_site_fn)sc_check_one, func);
}

void __static_call_queue_checked(struct text_batch *b,
				 struct static_call_key *key, void *func)
{
	if (key->func == func)
		return;
	if (unlikely(!text_batch_may_queue(b))) {
		text_batch_refuse(b, TEXT_BATCH_OP_QUEUE);
		return;
	}
	sc_for_each_site(key, sc_queue_one, func);
	WRITE_ONCE(key->func, func);
	sc_note_target(key, func);
}

static int __static_call_queue(struct text_batch *b,
			       struct static_call_key *key, void *func)
{
	int ret = __static_call_check(key, func);

	if (!ret)
		__static_call_queue_checked(b, key, func);
	return ret;
}

/*
 * The targets each call is known to take: its first target and every one
 * it was set to since, under static_call_mutex. The console retargets a
 * call only to one of them (static_call_retarget()). Past the end of the
 * record nothing more is noted.
 */
#define SC_KNOWN_MAX 256
static struct {
	struct static_call_key *key;
	void *func;
} sc_known[SC_KNOWN_MAX];
static unsigned int sc_nr_known;

static void sc_note_target(struct static_call_key *key, void *func)
{
	unsigned int i;

	for (i = 0; i < sc_nr_known; i++)
		if (sc_known[i].key == key && sc_known[i].func == func)
			return;
	if (sc_nr_known < SC_KNOWN_MAX) {
		sc_known[sc_nr_known].key = key;
		sc_known[sc_nr_known++].func = func;
	}
}

/* Under static_call_mutex: what lies in [start, start + size) is forgotten. */
void __static_call_forget(unsigned long start, unsigned long size)
{
	unsigned int i, j = 0;

	for (i = 0; i < sc_nr_known; i++)
		if ((unsigned long)sc_known[i].key - start >= size &&
		    (unsigned long)sc_known[i].func - start >= size)
			sc_known[j++] = sc_known[i];
	sc_nr_known = j;
}

void __static_call_note_key(struct static_call_key *key)
{
	sc_note_target(key, key->func);
}

int static_call_known_targets(struct static_call_key *key, void **funcs,
			      int max)
{
	unsigned int i;
	int n = 0;

	mutex_lock(&static_call_mutex);
	for (i = 0; i < sc_nr_known; i++)
		if (sc_known[i].key == key && n < max)
			funcs[n++] = sc_known[i].func;
	mutex_unlock(&static_call_mutex);
	return n;
}

static bool sc_is_known(struct static_call_key *key, void *func)
{
	unsigned int i;

	for (i = 0; i < sc_nr_known; i++)
		if (sc_known[i].key == key && sc_known[i].func == func)
			return true;
	return false;
}

static void sc_for_each_in(const struct static_call_tramp_key *tk,
			   unsigned int n, struct module *mod,
			   void (*fn)(struct static_call_key *key,
				      struct module *mod, void *arg),
			   void *arg)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		fn(sc_tk_key(&tk[i]), mod, arg);
}

/* Under module_mutex. */
static void __static_call_for_each(void (*fn)(struct static_call_key *key,
					     struct module *mod, void *arg),
				   void *arg)
{
	struct module *mod;

	sc_for_each_in(__start_static_call_tramp_key,
		       __stop_static_call_tramp_key -
			       __start_static_call_tramp_key,
		       NULL, fn, arg);
	list_for_each_entry(mod, &modules, list)
		sc_for_each_in(mod->static_call_tramp_keys,
			       mod->num_static_call_tramp_keys, mod, fn, arg);
}

void static_call_for_each(void (*fn)(struct static_call_key *key,
				     struct module *mod, void *arg),
			  void *arg)
{
	mutex_lock(&module_mutex);
	__static_call_for_each(fn, arg);
	mutex_unlock(&module_mutex);
}

struct sc_lookup {
	const char *name;
	struct static_call_key *key;
};

static void sc_match(struct static_call_key *key, struct module *mod,
		     void *arg)
{
	struct sc_lookup *l = arg;

	if (!l->key && !strcmp(key->name, l->name))
		l->key = key;
}

int static_call_retarget(const char *name, void *func)
{
	struct sc_lookup l = { .name = name };
	bool known;
	int ret;

	mutex_lock(&module_mutex);
	__static_call_for_each(sc_match, &l);
	ret = -ENOENT;
	if (l.key) {
		mutex_lock(&static_call_mutex);
		known = sc_is_known(l.key, func);
		mutex_unlock(&static_call_mutex);
		ret = known ? __static_call_update(l.key, l.key->tramp, func) :
			      -EINVAL;
	}
	mutex_unlock(&module_mutex);
	return ret;
}

bool __static_call_refuse(struct static_call_key *key, void *func)
{
	if (in_interrupt() || irqs_disabled()) {
		if (warn_record_first(&static_call_warned, key, SC_MISUSE_IRQ))
			WARN(1, "static_call: %s updated from interrupt context: refused\n",
			     key->name);
		return true;
	}
	if (!func && !key->nullable) {
		if (warn_record_first(&static_call_warned, key, SC_MISUSE_NULL))
			WARN(1, "static_call: %s set to NULL, but it is not DEFINE_STATIC_CALL_NULL: unchanged\n",
			     key->name);
		return true;
	}
	return false;
}

int __static_call_update(struct static_call_key *key, void *tramp, void *func)
{
	struct text_batch b = {};
	int ret;

	if (__static_call_refuse(key, func))
		return in_interrupt() || irqs_disabled() ? -EPERM : -EINVAL;
	text_batch_lock(&b, TEXT_BATCH_CPUS | TEXT_BATCH_CALLS | TEXT_BATCH_TEXT);
	ret = __static_call_queue(&b, key, func);
	text_batch_apply(&b);
	text_batch_unlock(&b, TEXT_BATCH_ALL);
	return ret;
}
EXPORT_SYMBOL_GPL(__static_call_update);

static int sc_reserved_one(struct static_call_key *key, void *addr, bool tail,
			   void *range)
{
	char **r = range;

	return (char *)addr < r[1] && (char *)addr + 5 > r[0];
}

int static_call_text_reserved(void *start, void *end)
{
	const struct static_call_site *s;
	char *range[2] = { start, end };
	struct static_call_key *key;
	int ret = 0;

	mutex_lock(&static_call_mutex);
	for (s = __start_static_call_sites; !ret && s < __stop_static_call_sites;
	     s++) {
		key = static_call_tramp_key(sc_site_tramp(s));
		if (key)
			ret = sc_reserved_one(key, sc_site_addr(s), false, range);
	}
	mutex_unlock(&static_call_mutex);
	return ret;
}

/* One call's run of the table: linked to its key, its sites queued. */
static void __init sc_init_run(struct text_batch *b,
			       const struct static_call_site *s, unsigned int n)
{
	void *tramp = sc_site_tramp(s);
	struct static_call_key *key = static_call_tramp_key(tramp);
	unsigned int i;

	if (!key) {
		pr_err("static_call: trampoline %pS has no key: its %u sites stay on it\n",
		       tramp, n);
		return;
	}
	key->sites = s;
	key->nr_sites = n;
	for (i = 0; i < n; i++) {
		void *addr = sc_site_addr(&s[i]);
		bool tail = sc_site_tail(&s[i]);

		/* Born calling the trampoline; a site that does not is left. */
		if (arch_static_call_check_site(addr, tramp, tail, key->name))
			continue;
		if (key->func != tramp)
			text_batch_queue_call(b, addr, key->func, tail);
	}
}

void __init static_call_init(void)
{
	const struct static_call_site *s = __start_static_call_sites, *run;
	const struct static_call_tramp_key *tk;
	struct text_batch b = {};

	if (static_call_initialized)
		return;
	text_batch_lock(&b, TEXT_BATCH_CPUS | TEXT_BATCH_CALLS | TEXT_BATCH_TEXT);
	for (tk = __start_static_call_tramp_key;
	     tk < __stop_static_call_tramp_key; tk++)
		__static_call_note_key(sc_tk_key(tk));
	while (s < __stop_static_call_sites) {
		for (run = s; s < __stop_static_call_sites &&
			      sc_site_tramp(s) == sc_site_tramp(run);
		     s++)
			;
		sc_init_run(&b, run, s - run);
	}
	text_batch_apply(&b);
	static_call_initialized = true;
	text_batch_unlock(&b, TEXT_BATCH_ALL);
	pr_info("static_call: %ld sites of %ld calls\n",
		(long)(__stop_static_call_sites - __start_static_call_sites),
		(long)(__stop_static_call_tramp_key -
		       __start_static_call_tramp_key));
}
