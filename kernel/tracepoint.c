// SPDX-License-Identifier: GPL-2.0
/*
 * Tracepoints: probe arrays replaced under RCU, keys flipped on the first
 * and the last probe (<linux/tracepoint.h>, Documentation/tracepoints.rst).
 *
 * Lock order: cpu_hotplug_lock (read) -> tracepoints_mutex ->
 * jump_label_mutex -> text_mutex. Registration takes the hotplug lock
 * first so that the key is flipped with static_key_*_cpuslocked() under
 * tracepoints_mutex: the probe array and the key change together, and a
 * CPU coming or going cannot interleave with the flip.
 *
 * A tracepoint's funcs is NULL (no probe) or a NULL-terminated array in a
 * struct tp_probes, never changed once published except by the stub of a
 * removal that found no memory (see tp_remove_in_place()). The array a
 * reader loaded stays valid until a grace period after it was replaced:
 * old arrays go through kfree_rcu().
 */
#define pr_fmt(fmt) "tracepoint: " fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/cpu.h>
#include <linux/err.h>
#include <linux/export.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/rcupdate.h>
#include <linux/static_call.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

struct tp_probes {
	struct rcu_head rcu;
	struct tracepoint_func probes[];
};

static DEFINE_MUTEX(tracepoints_mutex);
/* Tables outside the image (modules), under tracepoints_mutex. */
static LIST_HEAD(tracepoint_tables);

/*
 * What a probe removed without memory for a new array becomes: the
 * iterator calls it with the tracepoint's arguments, which the x86-64
 * calling convention lets it ignore (Linux does the same).
 */
static void tp_stub_func(void)
{
}

static struct tp_probes *tp_probes_of(struct tracepoint_func *funcs)
{
	return container_of(funcs, struct tp_probes, probes[0]);
}

static struct tracepoint_func *tp_alloc_funcs(unsigned int n)
{
	struct tp_probes *p =
		kmalloc(sizeof(*p) + n * sizeof(p->probes[0]), GFP_KERNEL);

	return p ? p->probes : NULL;
}

static void tp_free_funcs_rcu(struct tracepoint_func *funcs)
{
	if (funcs)
		kfree_rcu(tp_probes_of(funcs), rcu);
}

/* Probes in the array, stubs included; 0 for NULL. */
static unsigned int tp_nr_funcs(const struct tracepoint_func *funcs)
{
	unsigned int n = 0;

	while (funcs && funcs[n].func)
		n++;
	return n;
}

/* Probes that are not stubs. */
static unsigned int tp_nr_live(const struct tracepoint_func *funcs)
{
	unsigned int n = 0, i;

	for (i = 0; funcs && funcs[i].func; i++)
		n += funcs[i].func != (void *)tp_stub_func;
	return n;
}

/*
 * A copy of old with tf inserted before the first probe of lower
 * priority (so higher priorities run first, equal ones in registration
 * order), stubs left out. ERR_PTR(-EEXIST) if tf is there already.
 */
static struct tracepoint_func *tp_funcs_add(struct tracepoint_func *old,
					    const struct tracepoint_func *tf)
{
	unsigned int n = tp_nr_funcs(old), i, j = 0;
	struct tracepoint_func *new;
	bool placed = false;

	for (i = 0; i < n; i++)
		if (old[i].func == tf->func && old[i].data == tf->data)
			return ERR_PTR(-EEXIST);
	new = tp_alloc_funcs(n + 2);
	if (!new)
		return ERR_PTR(-ENOMEM);
	for (i = 0; i < n; i++) {
		if (old[i].func == (void *)tp_stub_func)
			continue;
		if (!placed && old[i].prio < tf->prio) {
			new[j++] = *tf;
			placed = true;
		}
		new[j++] = old[i];
	}
	if (!placed)
		new[j++] = *tf;
	new[j].func = NULL;
	return new;
}

static int tp_find(const struct tracepoint_func *funcs, void *func, void *data)
{
	int i;

	for (i = 0; funcs && funcs[i].func; i++)
		if (funcs[i].func == func && funcs[i].data == data)
			return i;
	return -ENOENT;
}

/*
 * A copy of old without entry victim and without stubs, or NULL when
 * nothing would be left. ERR_PTR(-ENOMEM) if there is no memory for it.
 */
static struct tracepoint_func *tp_funcs_remove(struct tracepoint_func *old,
					       int victim)
{
	unsigned int live = tp_nr_live(old) - 1, i, j = 0;
	struct tracepoint_func *new;

	if (!live)
		return NULL;
	new = tp_alloc_funcs(live + 1);
	if (!new)
		return ERR_PTR(-ENOMEM);
	for (i = 0; old[i].func; i++)
		if (i != victim && old[i].func != (void *)tp_stub_func)
			new[j++] = old[i];
	new[j].func = NULL;
	return new;
}

/*
 * No memory for a smaller array: the victim becomes the stub in the
 * published array itself. A reader sees the old probe or the stub, both
 * safe; the stub is dropped by the next change that reallocates.
 */
static void tp_remove_in_place(struct tracepoint_func *funcs, int victim)
{
	WRITE_ONCE(funcs[victim].func, (void *)tp_stub_func);
}

/* What tp's static call must target for funcs: its one probe, or the iterator. */
static void *tp_call_target(struct tracepoint *tp,
			    const struct tracepoint_func *funcs)
{
	return tp_nr_funcs(funcs) == 1 ? funcs[0].func : tp->iterator;
}

static void tp_retarget(struct tracepoint *tp, void *func)
{
	if (tp->static_call_key && READ_ONCE(tp->static_call_key->func) != func)
		__static_call_update(tp->static_call_key, tp->static_call_tramp,
				     func);
}

/*
 * Publishes new in place of tp->funcs, retargeting tp's static call so that
 * a reader, which loads the array and then calls the target with its first
 * probe's data, never calls a probe with another probe's data:
 *
 *   1. new needs the iterator (0 or 2+ probes): retarget, then publish
 *      (the iterator is right for any array);
 *   2. new needs its one probe: publish, wait until no reader can hold an
 *      older array (whose first probe may be another), then retarget.
 */
static void tp_publish(struct tracepoint *tp, struct tracepoint_func *new)
{
	void *target = tp_call_target(tp, new);

	if (target == tp->iterator) {
		tp_retarget(tp, target);
		rcu_assign_pointer(tp->funcs, new);
		return;
	}
	rcu_assign_pointer(tp->funcs, new);
	if (tp->static_call_key && READ_ONCE(tp->static_call_key->func) != target) {
		synchronize_rcu();
		tp_retarget(tp, target);
	}
}

/*
 * 0 -> 1: publish, then the key on and the call on the probe in one
 * batch (static_key_apply_queued()), once no reader holds an older array.
 */
static void tp_first_on(struct tracepoint *tp, struct tracepoint_func *new)
{
	rcu_assign_pointer(tp->funcs, new);
	if (tp->static_call_key &&
	    READ_ONCE(tp->static_call_key->func) != new[0].func) {
		synchronize_rcu();
		__static_call_update_queued(tp->static_call_key, new[0].func);
	}
	static_key_enable_queued(&tp->key.key);
	static_key_apply_queued();
}

/* 1 -> 0: the key off and the call on the iterator in one batch, then NULL. */
static void tp_last_off(struct tracepoint *tp)
{
	static_key_disable_queued(&tp->key.key);
	if (tp->static_call_key &&
	    READ_ONCE(tp->static_call_key->func) != tp->iterator)
		__static_call_update_queued(tp->static_call_key, tp->iterator);
	static_key_apply_queued();
	rcu_assign_pointer(tp->funcs, NULL);
}

/* 0 -> 1 probes: regfunc, publish, then enable (readers find funcs). */
static int tp_add_func(struct tracepoint *tp, struct tracepoint_func *tf)
{
	struct tracepoint_func *old = tp->funcs, *new;
	bool first = !tp_nr_live(old);
	int ret;

	new = tp_funcs_add(old, tf);
	if (IS_ERR(new))
		return PTR_ERR(new);
	if (first && tp->regfunc) {
		ret = tp->regfunc();
		if (ret < 0) {
			kfree(tp_probes_of(new));
			return ret;
		}
	}
	if (first)
		tp_first_on(tp, new);
	else
		tp_publish(tp, new);
	tp_free_funcs_rcu(old);
	return 0;
}

/* 1 -> 0 probes: disable first, then unpublish, then unregfunc. */
static int tp_remove_func(struct tracepoint *tp, void *func, void *data)
{
	struct tracepoint_func *old = tp->funcs, *new;
	int victim = tp_find(old, func, data);

	if (victim < 0 || func == (void *)tp_stub_func)
		return -ENOENT;
	new = tp_funcs_remove(old, victim);
	if (IS_ERR(new)) {
		tp_remove_in_place(old, victim);
		return 0;
	}
	if (!new)
		tp_last_off(tp);
	else
		tp_publish(tp, new);
	if (!new && tp->unregfunc)
		tp->unregfunc();
	tp_free_funcs_rcu(old);
	return 0;
}

int tracepoint_probe_register_prio(struct tracepoint *tp, void *probe,
				   void *data, int prio)
{
	struct tracepoint_func tf = { .func = probe,
				      .data = data,
				      .prio = prio };
	int ret;

	if (!probe || probe == (void *)tp_stub_func)
		return -EINVAL;
	cpus_read_lock();
	mutex_lock(&tracepoints_mutex);
	ret = tp_add_func(tp, &tf);
	mutex_unlock(&tracepoints_mutex);
	cpus_read_unlock();
	return ret;
}
EXPORT_SYMBOL_GPL(tracepoint_probe_register_prio);

int tracepoint_probe_register(struct tracepoint *tp, void *probe, void *data)
{
	return tracepoint_probe_register_prio(tp, probe, data,
					      TRACEPOINT_DEFAULT_PRIO);
}
EXPORT_SYMBOL_GPL(tracepoint_probe_register);

int tracepoint_probe_unregister(struct tracepoint *tp, void *probe, void *data)
{
	int ret;

	cpus_read_lock();
	mutex_lock(&tracepoints_mutex);
	ret = tp_remove_func(tp, probe, data);
	mutex_unlock(&tracepoints_mutex);
	cpus_read_unlock();
	return ret;
}
EXPORT_SYMBOL_GPL(tracepoint_probe_unregister);

static void tp_for_each_in(struct tracepoint *const *start, unsigned int n,
			   void (*fct)(struct tracepoint *tp, void *priv),
			   void *priv)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		fct(start[i], priv);
}

void for_each_kernel_tracepoint(void (*fct)(struct tracepoint *tp, void *priv),
				void *priv)
{
	tp_for_each_in(__start___tracepoints_ptrs,
		       __stop___tracepoints_ptrs - __start___tracepoints_ptrs,
		       fct, priv);
}

/* The kernel's tracepoints, then each table's; tracepoints_mutex held. */
static void __for_each_tracepoint(void (*fct)(struct tracepoint *tp,
					      void *priv),
				  void *priv)
{
	struct tracepoint_table *t;

	for_each_kernel_tracepoint(fct, priv);
	list_for_each_entry(t, &tracepoint_tables, list)
		tp_for_each_in(t->start, t->num, fct, priv);
}

void for_each_tracepoint(void (*fct)(struct tracepoint *tp, void *priv),
			 void *priv)
{
	mutex_lock(&tracepoints_mutex);
	__for_each_tracepoint(fct, priv);
	mutex_unlock(&tracepoints_mutex);
}

struct tp_lookup {
	const char *name;
	struct tracepoint *found;
};

static void tp_match_name(struct tracepoint *tp, void *priv)
{
	struct tp_lookup *l = priv;

	if (!l->found && !strcmp(tp->name, l->name))
		l->found = tp;
}

struct tracepoint *tracepoint_find(const char *name)
{
	struct tp_lookup l = { .name = name };

	for_each_tracepoint(tp_match_name, &l);
	return l.found;
}

void tracepoint_module_coming(struct tracepoint_table *table)
{
	mutex_lock(&tracepoints_mutex);
	list_add_tail(&table->list, &tracepoint_tables);
	mutex_unlock(&tracepoints_mutex);
}

/*
 * Every probe of tp goes, the key first (its sites may be in the module
 * that is going). tracepoints_mutex and the hotplug lock held.
 */
static void tp_remove_all(struct tracepoint *tp)
{
	unsigned int i;

	while (tp->funcs) {
		for (i = 0; tp->funcs[i].func == (void *)tp_stub_func; i++)
			;
		tp_remove_func(tp, tp->funcs[i].func, tp->funcs[i].data);
	}
}

/*
 * The probes' owners unregister before the table goes. One that did not
 * would leave the key enabled on sites that are about to be freed and a
 * probe array nobody frees: we say so and remove them.
 */
void tracepoint_module_going(struct tracepoint_table *table)
{
	struct tracepoint *tp;
	unsigned int i;

	cpus_read_lock();
	mutex_lock(&tracepoints_mutex);
	for (i = 0; i < table->num; i++) {
		tp = table->start[i];
		if (WARN(tp->funcs,
			 "tracepoint %s goes away with probes attached (first %ps): removed\n",
			 tp->name, tp->funcs[0].func))
			tp_remove_all(tp);
	}
	list_del_init(&table->list);
	mutex_unlock(&tracepoints_mutex);
	cpus_read_unlock();
}

struct tp_stray {
	unsigned long start, size;
	const char *owner;
	unsigned int removed;
};

/* The first probe of funcs whose function is in the range, or -1. */
static int tp_find_within(const struct tracepoint_func *funcs,
			  const struct tp_stray *s)
{
	int i;

	for (i = 0; funcs && funcs[i].func; i++)
		if ((unsigned long)funcs[i].func - s->start < s->size)
			return i;
	return -1;
}

static void tp_remove_stray(struct tracepoint *tp, void *priv)
{
	struct tp_stray *s = priv;
	int i;

	while ((i = tp_find_within(tp->funcs, s)) >= 0) {
		WARN(1,
		     "tracepoint %s: probe %pS still registered as %s goes: removed\n",
		     tp->name, tp->funcs[i].func, s->owner);
		tp_remove_func(tp, tp->funcs[i].func, tp->funcs[i].data);
		s->removed++;
	}
}

struct tp_refs {
	const struct module *mod;
	char *buf;
	size_t len;
	bool found;
};

static void tp_find_module_probe(struct tracepoint *tp, void *priv)
{
	struct tp_refs *r = priv;
	int i;

	/* Its own tracepoints go with it, their probes with them. */
	if (within_module((unsigned long)tp, r->mod))
		return;
	for (i = 0; !r->found && tp->funcs && tp->funcs[i].func; i++) {
		if (tp->funcs[i].func == (void *)tp_stub_func ||
		    (!within_module((unsigned long)tp->funcs[i].func, r->mod) &&
		     !within_module((unsigned long)tp->funcs[i].data, r->mod)))
			continue;
		snprintf(r->buf, r->len, "a probe (%ps) on tracepoint %s",
			 tp->funcs[i].func, tp->name);
		r->found = true;
	}
}

bool tracepoint_probes_point_into(const struct module *mod, char *buf,
				  size_t len)
{
	struct tp_refs r = { .mod = mod, .buf = buf, .len = len };

	for_each_tracepoint(tp_find_module_probe, &r);
	return r.found;
}

unsigned int tracepoint_remove_probes_within(unsigned long start,
					     unsigned long size,
					     const char *owner)
{
	struct tp_stray s = { .start = start, .size = size, .owner = owner };

	if (!size)
		return 0;
	cpus_read_lock();
	mutex_lock(&tracepoints_mutex);
	__for_each_tracepoint(tp_remove_stray, &s);
	mutex_unlock(&tracepoints_mutex);
	cpus_read_unlock();
	/* The text goes next: no CPU may still be running a removed probe. */
	if (s.removed)
		tracepoint_synchronize_unregister();
	return s.removed;
}

/*
 * Many tracepoints, one batch (tracepoint_probe_register_batch()): what
 * tp_add_func() and tp_remove_func() do for one tracepoint, done for n
 * with every key flip and every retarget queued into one
 * static_key_apply_queued() batch, and one grace period for all of them
 * where the single path takes one each. Registering:
 *
 *   1. every new array built, regfunc run for each first probe (no
 *      memory, -EEXIST, a regfunc's error: all undone, nothing published);
 *   2. a call on its one probe whose tracepoint gets a second one goes to
 *      the iterator first (tp_publish()'s rule 1), one batch for all such
 *      calls; only then
 *   3. every array published;
 *   4. if a call is to target a probe (a first probe): one grace period,
 *      so that no reader still holds an older array (tp_publish()'s rule 2);
 *   5. one batch: those calls on their probe, the keys of the first
 *      probes on (their readers find the arrays published in 3);
 *   6. the old arrays freed after a grace period.
 *
 * So enabling N events on tracepoints without probes is one batch, three
 * sync rounds, and one grace period. Step 2 has work only for a
 * tracepoint that had exactly one other probe: then two batches.
 *
 * If 5 is refused (a site with unexpected bytes, no memory for the
 * queue) the old arrays are published again (the calls of 5 did not
 * move: the iterator is right for any array, and a first probe's key is
 * still off), the calls moved in 2 go back to their probe after a grace
 * period, the regfuncs are undone and the new arrays freed after a grace
 * period: every tracepoint as it was.
 *
 * Unregistering, where the single path needs no grace period (1 -> 0:
 * key off and call on the iterator, then NULL):
 *
 *   1. every new array built (no memory: the victim will become the stub
 *      in place, as tp_remove_in_place());
 *   2. the arrays that keep probes published (every such call is on the
 *      iterator: right for any array);
 *   3. if a call is to target the one probe left (2 -> 1): one grace
 *      period;
 *   4. one batch: those calls on their probe, the keys of the last probes
 *      off and their calls on the iterator;
 *   5. then the last probes' arrays NULL, the stubs written, unregfunc
 *      run, the old arrays freed after a grace period.
 *
 * If 4 is refused, the arrays of 2 are published again (their calls are
 * still on the iterator) and nothing else was touched.
 */
#define TPB_FIRST 0x1 /* 0 -> 1 probes: the key goes on */
#define TPB_LAST 0x2 /* 1 -> 0 probes: the key goes off */
#define TPB_REGFUNC 0x4 /* its regfunc ran */
#define TPB_PRE 0x8 /* its call left its probe for the iterator */
#define TPB_ONE 0x10 /* its call goes to new's one probe */
#define TPB_IN_PLACE 0x20 /* no memory: the victim becomes the stub */

/* The refusal of a batch of n, said naming tp (if one); returns ret. */
static int tpb_refuse(unsigned int n, struct tracepoint *tp, int ret)
{
	if (tp)
		pr_err("a batch of %u tracepoints refused at %s (%d): nothing changed\n",
		       n, tp->name, ret);
	else
		pr_err("a batch of %u tracepoints refused (%d): nothing changed\n",
		       n, ret);
	return ret;
}

/* Each tracepoint once, each probe real: 0, or the refusal said. */
static int tpb_check(struct tracepoint_batch_probe *b, unsigned int n)
{
	unsigned int i, j;

	for (i = 0; i < n; i++) {
		b[i].old = b[i].tp->funcs;
		b[i].new = NULL;
		b[i].flags = 0;
		if (!b[i].probe || b[i].probe == (void *)tp_stub_func)
			return tpb_refuse(n, b[i].tp, -EINVAL);
		for (j = 0; j < i; j++)
			if (WARN_ONCE(b[j].tp == b[i].tp,
				      "tracepoint %s twice in one batch\n",
				      b[i].tp->name))
				return tpb_refuse(n, b[i].tp, -EINVAL);
	}
	return 0;
}

static bool tpb_call_is(struct tracepoint *tp, void *func)
{
	return !tp->static_call_key ||
	       READ_ONCE(tp->static_call_key->func) == func;
}

/* Register step 1: 0, or the refusal said (tpb_undo_add() cleans up). */
static int tpb_prepare_add(struct tracepoint_batch_probe *b, unsigned int n)
{
	struct tracepoint_func tf;
	unsigned int i;
	int ret;

	for (i = 0; i < n; i++) {
		tf = (struct tracepoint_func){ .func = b[i].probe,
					       .data = b[i].data,
					       .prio = b[i].prio };
		b[i].new = tp_funcs_add(b[i].old, &tf);
		if (IS_ERR(b[i].new)) {
			ret = PTR_ERR(b[i].new);
			b[i].new = NULL;
			return tpb_refuse(n, b[i].tp, ret);
		}
		if (tp_nr_live(b[i].old))
			continue;
		b[i].flags |= TPB_FIRST;
		if (b[i].tp->regfunc) {
			ret = b[i].tp->regfunc();
			if (ret < 0)
				return tpb_refuse(n, b[i].tp, ret);
			b[i].flags |= TPB_REGFUNC;
		}
	}
	return 0;
}

/* Undoes step 1; the new arrays wait a grace period if published. */
static void tpb_undo_add(struct tracepoint_batch_probe *b, unsigned int n,
			 bool published)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if ((b[i].flags & TPB_REGFUNC) && b[i].tp->unregfunc)
			b[i].tp->unregfunc();
		if (b[i].new && published)
			tp_free_funcs_rcu(b[i].new);
		else if (b[i].new)
			kfree(tp_probes_of(b[i].new));
	}
}

/* Register step 2: one batch, if any call must leave its probe first. */
static int tpb_to_iterator(struct tracepoint_batch_probe *b, unsigned int n)
{
	struct tracepoint *tp;
	bool queued = false;
	unsigned int i;

	for (i = 0; i < n; i++) {
		tp = b[i].tp;
		if (tp_call_target(tp, b[i].new) != tp->iterator ||
		    tpb_call_is(tp, tp->iterator))
			continue;
		__static_call_update_queued(tp->static_call_key, tp->iterator);
		b[i].flags |= TPB_PRE;
		queued = true;
	}
	return queued ? static_key_apply_queued() : 0;
}

/*
 * Publishes new for each entry that has one (a last probe's NULL waits
 * until after the batch, a removal in place has none), marking the calls
 * that must then target new's one probe: true if there is any.
 */
static bool tpb_publish(struct tracepoint_batch_probe *b, unsigned int n)
{
	struct tracepoint *tp;
	bool one = false;
	unsigned int i;
	void *target;

	for (i = 0; i < n; i++) {
		tp = b[i].tp;
		if (!b[i].new)
			continue;
		rcu_assign_pointer(tp->funcs, b[i].new);
		target = tp_call_target(tp, b[i].new);
		if (target != tp->iterator && !tpb_call_is(tp, target)) {
			b[i].flags |= TPB_ONE;
			one = true;
		}
	}
	return one;
}

/*
 * The one batch: a grace period first if a call is to target a probe
 * (one), then every such call, every key that flips, the last probes'
 * calls on the iterator. 0 or the batch's refusal (nothing changed).
 */
static int tpb_apply(struct tracepoint_batch_probe *b, unsigned int n, bool one)
{
	struct tracepoint *tp;
	unsigned int i;

	if (one)
		synchronize_rcu();
	for (i = 0; i < n; i++) {
		tp = b[i].tp;
		if (b[i].flags & TPB_ONE)
			__static_call_update_queued(tp->static_call_key,
						    b[i].new[0].func);
		if (b[i].flags & TPB_FIRST)
			static_key_enable_queued(&tp->key.key);
		if (!(b[i].flags & TPB_LAST))
			continue;
		static_key_disable_queued(&tp->key.key);
		if (!tpb_call_is(tp, tp->iterator))
			__static_call_update_queued(tp->static_call_key,
						    tp->iterator);
	}
	return static_key_apply_queued();
}

/*
 * The batch refused after publishing: the old arrays back (every call
 * that may see them is on the iterator), then the calls of step 2 back
 * on their one probe once no reader holds a new array.
 */
static void tpb_unpublish(struct tracepoint_batch_probe *b, unsigned int n)
{
	bool pre = false;
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (!b[i].new)
			continue;
		rcu_assign_pointer(b[i].tp->funcs, b[i].old);
		pre |= b[i].flags & TPB_PRE;
	}
	if (!pre)
		return;
	synchronize_rcu();
	for (i = 0; i < n; i++)
		if (b[i].flags & TPB_PRE)
			__static_call_update_queued(b[i].tp->static_call_key,
						    b[i].old[0].func);
	if (static_key_apply_queued())
		pr_warn("a refused batch's calls stay on their iterators\n");
}

static int __tracepoint_probe_register_batch(struct tracepoint_batch_probe *b,
					     unsigned int n)
{
	unsigned int i;
	int ret;

	ret = tpb_check(b, n);
	if (ret)
		return ret;
	ret = tpb_prepare_add(b, n);
	if (ret)
		goto out_undo;
	ret = tpb_to_iterator(b, n);
	if (ret) {
		tpb_refuse(n, NULL, ret);
		goto out_undo;
	}
	ret = tpb_apply(b, n, tpb_publish(b, n));
	if (ret) {
		tpb_refuse(n, NULL, ret);
		tpb_unpublish(b, n);
		tpb_undo_add(b, n, true);
		return ret;
	}
	for (i = 0; i < n; i++)
		tp_free_funcs_rcu(b[i].old);
	return 0;
out_undo:
	tpb_undo_add(b, n, false);
	return ret;
}

int tracepoint_probe_register_batch(struct tracepoint_batch_probe *b,
				    unsigned int n)
{
	int ret;

	if (!n)
		return 0;
	cpus_read_lock();
	mutex_lock(&tracepoints_mutex);
	ret = __tracepoint_probe_register_batch(b, n);
	mutex_unlock(&tracepoints_mutex);
	cpus_read_unlock();
	return ret;
}
EXPORT_SYMBOL_GPL(tracepoint_probe_register_batch);

/* Unregister step 1: 0, or the refusal said (nothing allocated then). */
static int tpb_prepare_remove(struct tracepoint_batch_probe *b, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		b[i].victim = tp_find(b[i].old, b[i].probe, b[i].data);
		if (b[i].victim < 0) {
			tpb_refuse(n, b[i].tp, -ENOENT);
			while (i--)
				if (b[i].new)
					kfree(tp_probes_of(b[i].new));
			return -ENOENT;
		}
		b[i].new = tp_funcs_remove(b[i].old, b[i].victim);
		if (IS_ERR(b[i].new)) {
			b[i].new = NULL;
			b[i].flags |= TPB_IN_PLACE;
		} else if (!b[i].new) {
			b[i].flags |= TPB_LAST;
		}
	}
	return 0;
}

/* Unregister step 5, after the batch. */
static void tpb_finish_remove(struct tracepoint_batch_probe *b, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (b[i].flags & TPB_IN_PLACE) {
			tp_remove_in_place(b[i].old, b[i].victim);
			continue;
		}
		if (b[i].flags & TPB_LAST)
			rcu_assign_pointer(b[i].tp->funcs, NULL);
		if ((b[i].flags & TPB_LAST) && b[i].tp->unregfunc)
			b[i].tp->unregfunc();
		tp_free_funcs_rcu(b[i].old);
	}
}

static int __tracepoint_probe_unregister_batch(struct tracepoint_batch_probe *b,
					       unsigned int n)
{
	unsigned int i;
	int ret;

	ret = tpb_check(b, n);
	if (!ret)
		ret = tpb_prepare_remove(b, n);
	if (ret)
		return ret;
	ret = tpb_apply(b, n, tpb_publish(b, n));
	if (ret) {
		tpb_refuse(n, NULL, ret);
		tpb_unpublish(b, n); /* no call moved to the iterator */
		for (i = 0; i < n; i++)
			tp_free_funcs_rcu(b[i].new);
		return ret;
	}
	tpb_finish_remove(b, n);
	return 0;
}

int tracepoint_probe_unregister_batch(struct tracepoint_batch_probe *b,
				      unsigned int n)
{
	int ret;

	if (!n)
		return 0;
	cpus_read_lock();
	mutex_lock(&tracepoints_mutex);
	ret = __tracepoint_probe_unregister_batch(b, n);
	mutex_unlock(&tracepoints_mutex);
	cpus_read_unlock();
	return ret;
}
EXPORT_SYMBOL_GPL(tracepoint_probe_unregister_batch);
