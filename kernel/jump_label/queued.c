// SPDX-License-Identifier: GPL-2.0
/*
 * Many keys and static calls, one batch (the names of Linux's 2026 RFC):
 *
 *   static_key_enable_queued(key); static_key_disable_queued(key);
 *   static_call_update_queued(name, func);
 *   ...
 *   ret = static_key_apply_queued();
 *
 * The queued calls record what static_key_enable()/disable() and
 * static_call_update() would do; apply makes all of it at once:
 *
 *   1. take jump_label_mutex, static_call_mutex (the hotplug lock is
 *      held since the first queued call: the caller's, or the queue's),
 *      through the queue's text batch (<linux/text_batch.h>);
 *   2. replay the queue on the keys' counts, as the plain calls would
 *      (an enable of an enabled key does nothing, a key with inc
 *      references is misused by either, a key enabled then disabled ends
 *      as it was): the queue is sorted by key and call, each one's
 *      entries kept in the order they were queued, so that the replay is
 *      one walk, O(n log n) for n entries;
 *   3. check every site of every key whose state changes, and of every
 *      call whose target changes: one holding unexpected bytes is named
 *      (site, key or call) and nothing at all changes: -EINVAL;
 *   4. under text_mutex: set the counts (-1 while enabling, as
 *      static_key_enable()), queue all those sites, apply the batch
 *      (text_batch_apply()): three sync rounds for any number of keys;
 *      then 1.
 *
 * The queue is one task's from its first queued call to apply
 * (queue_mutex, held in between): another task queueing waits.
 */
#include <linux/kernel.h>
#include <linux/cpu.h>
#include <linux/export.h>
#include <linux/jump_label.h>
#include <linux/jump_label_arch.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/static_call.h>
#include <linux/string.h>
#include <linux/text_batch.h>
#include "internal.h"

struct jl_queued {
	struct static_key *key;		/* NULL: a static call */
	struct static_call_key *call;
	void *func;
	bool enable;
	unsigned int seq;		/* its place in the queue */
	int from, to;			/* the key's count before, after (replay) */
	bool last;			/* the key's last entry: it applies */
};

static DEFINE_MUTEX(queue_mutex);
/*
 * The task whose queue it is, written under queue_mutex and read without
 * it by every task asking whether the queue is its own (only the owner
 * can find itself there): hence READ_ONCE()/WRITE_ONCE().
 */
static struct task_struct *queue_owner;
/* The owner's batch: the hotplug lock from the first queued call on. */
static struct text_batch queue_batch;
static struct jl_queued *queue;
static unsigned int queue_nr, queue_cap;
static bool queue_nomem;

/* Takes the queue for current (once), appends an entry. */
static void jl_queue_add(const struct jl_queued *q)
{
	struct text_batch b = {};
	struct jl_queued *v;

	if (READ_ONCE(queue_owner) != current) {
		/* The hotplug lock first, as every flip takes it. */
		text_batch_lock(&b, cpus_lock_held() ? 0 : TEXT_BATCH_CPUS);
		mutex_lock(&queue_mutex);
		WRITE_ONCE(queue_owner, current);
		queue_batch = b;
	}
	if (queue_nr == queue_cap) {
		v = kmalloc((queue_cap ? 2 * queue_cap : 16) * sizeof(*v),
			    GFP_KERNEL);
		if (!v) {
			queue_nomem = true;
			return;
		}
		memcpy(v, queue, queue_nr * sizeof(*v));
		kfree(queue);
		queue = v;
		queue_cap = queue_cap ? 2 * queue_cap : 16;
	}
	queue[queue_nr] = *q;
	queue[queue_nr].seq = queue_nr;
	queue_nr++;
}

void static_key_enable_queued(struct static_key *key)
{
	struct jl_queued q = { .key = key, .enable = true };

	if (static_key_check_use(key, _RET_IP_))
		jl_queue_add(&q);
}
EXPORT_SYMBOL_GPL(static_key_enable_queued);

void static_key_disable_queued(struct static_key *key)
{
	struct jl_queued q = { .key = key, .enable = false };

	if (static_key_check_use(key, _RET_IP_))
		jl_queue_add(&q);
}
EXPORT_SYMBOL_GPL(static_key_disable_queued);

void __static_call_update_queued(struct static_call_key *key, void *func)
{
	struct jl_queued q = { .call = key, .func = func };

	if (!__static_call_refuse(key, func))
		jl_queue_add(&q);
}
EXPORT_SYMBOL_GPL(__static_call_update_queued);

/* Orders the queue by key, then by call, each one's entries as queued. */
static int jl_queued_cmp(const void *a, const void *b)
{
	const struct jl_queued *qa = a, *qb = b;

	if (qa->key != qb->key)
		return (unsigned long)qa->key < (unsigned long)qb->key ? -1 : 1;
	if (qa->call != qb->call)
		return (unsigned long)qa->call < (unsigned long)qb->call ? -1 : 1;
	return qa->seq < qb->seq ? -1 : qa->seq > qb->seq;
}

/* True if two entries change the same key or the same call. */
static bool jl_same(const struct jl_queued *a, const struct jl_queued *b)
{
	return a->key == b->key && a->call == b->call;
}

/*
 * Step 2: each key entry's count after it, as the plain call would, and
 * each key's and call's last entry marked: the one that applies.
 */
static void jl_replay(void)
{
	struct jl_queued *q, *prev;
	unsigned int i;
	int v;

	if (!is_sorted(queue, queue_nr, sizeof(*queue), jl_queued_cmp))
		sort(queue, queue_nr, sizeof(*queue), jl_queued_cmp, NULL);
	for (i = 0; i < queue_nr; i++) {
		q = &queue[i];
		prev = i && jl_same(&queue[i - 1], q) ? &queue[i - 1] : NULL;
		q->last = i + 1 == queue_nr || !jl_same(q, &queue[i + 1]);
		if (!q->key)
			continue;
		q->from = prev ? prev->from : atomic_read(&q->key->enabled);
		v = prev ? prev->to : q->from;
		if (v < 0)
			static_key_misuse(q->key, MISUSE_NEGATIVE, 0);
		else if (v > 1)
			static_key_misuse(q->key, MISUSE_MIXED, 0);
		else
			v = q->enable;
		q->to = v;
	}
}

/* A key entry that changes its key's state when applied. */
static bool jl_flips(const struct jl_queued *q)
{
	return q->key && q->last && (q->from > 0) != (q->to > 0);
}

#ifdef CONFIG_JUMP_LABEL
static int jl_check_site(struct jump_entry *entry, struct module *mod,
			 void *enabled)
{
	return arch_jump_label_check_site(entry, *(bool *)enabled ^
						 jump_entry_is_branch(entry));
}

/* Every site of key holds the instruction of its current state. */
static int jl_check_key(struct static_key *key)
{
	bool enabled = __static_key_enabled(key);

	if (!static_key_initialized)
		return 0;
	return __static_key_for_each_site(key, jl_check_site, &enabled);
}

static void jl_queue_key(struct text_batch *b, struct static_key *key)
{
	if (static_key_initialized)
		jump_label_queue_key(b, key);
}
#else
static int jl_check_key(struct static_key *key)
{
	return 0;
}

static void jl_queue_key(struct text_batch *b, struct static_key *key)
{
}
#endif

/* Step 3: 0, or the first refusal (said) with nothing queued. */
static int jl_check_all(void)
{
	unsigned int i;
	int ret;

	for (i = 0; i < queue_nr; i++) {
		if (jl_flips(&queue[i]))
			ret = jl_check_key(queue[i].key);
		else if (queue[i].call && queue[i].last)
			ret = __static_call_check(queue[i].call, queue[i].func);
		else
			continue;
		if (ret) {
			pr_err("jump_label: a queued batch of %u changes refused: nothing changed\n",
			       queue_nr);
			return ret;
		}
	}
	return 0;
}

/* Step 4, under text_mutex: counts set, every site queued, one batch. */
static void jl_apply_all(struct text_batch *b)
{
	struct jl_queued *q;

	for (q = queue; q < queue + queue_nr; q++) {
		if (jl_flips(q)) {
			q->key->by_inc = false;
			atomic_set(&q->key->enabled, q->to ? -1 : 0);
			jl_queue_key(b, q->key);
		} else if (q->call && q->last) {
			__static_call_queue_checked(b, q->call, q->func);
		}
	}
	text_batch_apply(b);
	for (q = queue; q < queue + queue_nr; q++)
		if (jl_flips(q) && q->to)
			atomic_set_release(&q->key->enabled, 1);
}

/* The queue's end: emptied, given back, the hotplug lock dropped if taken. */
static void jl_queue_release(void)
{
	struct text_batch b = queue_batch;

	queue_nr = 0;
	queue_nomem = false;
	WRITE_ONCE(queue_owner, NULL);
	queue_batch = (struct text_batch){};
	mutex_unlock(&queue_mutex);
	text_batch_unlock(&b, TEXT_BATCH_ALL);
}

void static_key_drop_queued(void)
{
	if (READ_ONCE(queue_owner) == current)
		jl_queue_release();
}
EXPORT_SYMBOL_GPL(static_key_drop_queued);

int static_key_apply_queued(void)
{
	int ret = 0;

	if (READ_ONCE(queue_owner) != current)
		return 0; /* nothing queued by this task */
	if (queue_nomem) {
		pr_err("jump_label: out of memory for a queued batch of %u changes: nothing changed\n",
		       queue_nr);
		ret = -ENOMEM;
		goto out;
	}
	text_batch_lock(&queue_batch, TEXT_BATCH_KEYS | TEXT_BATCH_CALLS);
	jl_replay();
	text_batch_lock(&queue_batch, TEXT_BATCH_TEXT);
	ret = jl_check_all();
	if (!ret)
		jl_apply_all(&queue_batch);
	text_batch_unlock(&queue_batch,
			  TEXT_BATCH_KEYS | TEXT_BATCH_CALLS | TEXT_BATCH_TEXT);
out:
	jl_queue_release();
	return ret;
}
EXPORT_SYMBOL_GPL(static_key_apply_queued);
