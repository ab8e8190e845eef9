/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_TEXT_BATCH_H
#define _LINUX_TEXT_BATCH_H

/*
 * The text batch (kernel/jump_label/batch.c): the one way kernel text
 * changes. Static keys, static calls, the queued API (and through it the
 * tracepoints) and the module loader queue their sites here and write
 * them in one batch:
 *
 *	struct text_batch b = {};
 *
 *	text_batch_lock(&b, TEXT_BATCH_CPUS | TEXT_BATCH_KEYS |
 *			    TEXT_BATCH_TEXT);
 *	text_batch_queue_jump(&b, entry, JUMP_LABEL_JMP);   any number
 *	text_batch_queue_call(&b, addr, func, false);	    of each
 *	text_batch_apply(&b);
 *	text_batch_unlock(&b, TEXT_BATCH_ALL);
 *
 * The locks of a change of text, in the order every change takes them.
 * text_batch_lock() takes them (the body of __text_batch_lock() below is
 * the only code that does, for a change of text), and refuses one out of
 * order:
 *
 *	1. cpu_hotplug_lock, read  TEXT_BATCH_CPUS   no CPU comes or goes
 *	2. jump_label_mutex	   TEXT_BATCH_KEYS   key counts and links
 *	3. static_call_mutex	   TEXT_BATCH_CALLS  calls and their sites
 *	4. text_mutex		   TEXT_BATCH_TEXT   the queue and writes
 *
 * module_mutex comes before 1; tracepoints_mutex and the queued API's
 * queue sit between 1 and 2. A batch takes any subset, in that order,
 * over one or more calls, and drops what it took with text_batch_unlock().
 *
 * A batch is applied one of two ways. text_batch_apply() writes text that
 * CPUs may be running, with the arch's live protocol (on x86 the int3
 * batch: three sync rounds for any number of sites); text_batch_apply_nx()
 * writes text that no CPU can fetch yet (a module's, mapped NX until its
 * final protections) in one pass with no sync round.
 *
 * The arch supplies the encoders (<linux/jump_label_arch.h>,
 * <linux/static_call_arch.h>) and one apply hook, arch_text_batch_apply().
 */
#include <linux/compiler.h>
#include <linux/cpu.h>
#include <linux/memory.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/jump_label.h>
#include <linux/jump_label_arch.h>
#include <linux/static_call.h>
#include <linux/static_call_arch.h>

/* The locks of a batch (text_batch_lock()), in their order. */
#define TEXT_BATCH_CPUS 0x01U
#define TEXT_BATCH_KEYS 0x02U
#define TEXT_BATCH_CALLS 0x04U
#define TEXT_BATCH_TEXT 0x08U
#define TEXT_BATCH_ALL 0x0fU
/* What a queue and an apply need held: the hotplug lock and text_mutex. */
#define TEXT_BATCH_QUEUE (TEXT_BATCH_CPUS | TEXT_BATCH_TEXT)
/*
 * Not a lock: the batch only writes text no CPU can execute yet, by its
 * own hand (the module loader's copy of a module's sections), and may hold
 * text_mutex without the hotplug lock. Without that lock it queues and
 * applies nothing.
 */
#define TEXT_BATCH_NX 0x10U

/**
 * struct text_batch - one change of kernel text, on its caller's stack
 * @held:  the TEXT_BATCH_* locks the batch holds (taken, or the caller's)
 * @taken: of @held, those text_batch_lock() took: text_batch_unlock()
 *	   drops them
 * @nx:	   TEXT_BATCH_NX was given: the hotplug lock is not required
 *
 * Zero-initialized (``struct text_batch b = {};``) it holds nothing.
 */
struct text_batch {
	u8 held;
	u8 taken;
	bool nx;
};

/*
 * The initializer of a batch whose hotplug lock its maker's caller holds
 * and has checked (a static key worker's, whose entry point took the lock
 * or asserted it): not asserted again, never dropped by the batch.
 */
#define TEXT_BATCH_CPUS_HELD { .held = TEXT_BATCH_CPUS }

/* The refusals and the assertion of __text_batch_lock() (batch.c). */
void text_batch_misordered(struct text_batch *b, unsigned int take);
void text_batch_cpus_held(struct text_batch *b);

/**
 * text_batch_lock() - take a batch's locks, in the one order
 * @b:     the batch
 * @locks: TEXT_BATCH_* locks to hold, and TEXT_BATCH_NX
 *
 * Takes each lock of @locks that @b does not hold, in the order of
 * <linux/text_batch.h>. A batch that holds no hotplug lock and is not
 * asked for one (TEXT_BATCH_CPUS) holds the caller's: the caller must
 * hold it (cpus_read_lock(), or cpus_write_lock() in a hotplug callback),
 * which is asserted, unless @locks has TEXT_BATCH_NX.
 *
 * A lock that ranks before one @b holds is refused: it WARNs once per
 * caller, naming both locks, and takes nothing.
 *
 * Context: process context; may sleep.
 */
void text_batch_lock(struct text_batch *b, unsigned int locks);

/*
 * __text_batch_lock() does text_batch_lock()'s work inline, for the hot
 * paths (a flip, a module load) and boot: with a constant @locks
 * and a batch of the caller's own, only the calls that take the locks
 * are left, and each lock is taken where the out-of-line call would have
 * been. text_batch_lock() calls it: its body is the one place the order
 * is written.
 */
static __always_inline void __text_batch_lock(struct text_batch *b,
					      unsigned int locks)
{
	unsigned int take = locks & TEXT_BATCH_ALL & ~b->held;

	/*
	 * A held lock at or above the first one asked for: out of order.
	 * text_mutex, the last, cannot be (the test folds away for it).
	 */
	if ((locks & TEXT_BATCH_ALL) != TEXT_BATCH_TEXT &&
	    unlikely(take && b->held >= (take & -take))) {
		text_batch_misordered(b, take);
		return;
	}
	if (locks & TEXT_BATCH_NX)
		b->nx = true;
	if (!(b->held & TEXT_BATCH_CPUS)) {
		if (take & TEXT_BATCH_CPUS)
			cpus_read_lock();
		else if (!b->nx)
			text_batch_cpus_held(b);
	}
	if (take & TEXT_BATCH_KEYS)
		jump_label_lock();
	if (take & TEXT_BATCH_CALLS)
		mutex_lock(&static_call_mutex);
	if (take & TEXT_BATCH_TEXT)
		mutex_lock(&text_mutex);
	b->held |= take;
	b->taken |= take;
}

/**
 * text_batch_unlock() - drop locks a batch took
 * @b:     the batch
 * @locks: TEXT_BATCH_* locks to drop (TEXT_BATCH_ALL: every one)
 *
 * Drops, the last first, each lock of @locks that text_batch_lock() took
 * for @b; a hotplug lock that was the caller's stays held.
 *
 * Context: process context.
 */
void text_batch_unlock(struct text_batch *b, unsigned int locks);

/* __text_batch_unlock() does text_batch_unlock()'s work inline. */
static __always_inline void __text_batch_unlock(struct text_batch *b,
						unsigned int locks)
{
	unsigned int drop = locks & b->taken;

	if (drop & TEXT_BATCH_TEXT)
		mutex_unlock(&text_mutex);
	if (drop & TEXT_BATCH_CALLS)
		mutex_unlock(&static_call_mutex);
	if (drop & TEXT_BATCH_KEYS)
		jump_label_unlock();
	if (drop & TEXT_BATCH_CPUS)
		cpus_read_unlock();
	b->taken &= ~drop;
	b->held &= ~drop;
}

/* What a batch refused: text_batch_refuse()'s @op. */
enum text_batch_op {
	TEXT_BATCH_OP_QUEUE,
	TEXT_BATCH_OP_APPLY,
	TEXT_BATCH_OP_APPLY_NX,
};

/*
 * WARNs once per caller that @b was to do @op without the hotplug lock
 * and text_mutex, and does nothing else.
 */
void text_batch_refuse(struct text_batch *b, enum text_batch_op op);

/**
 * text_batch_may_queue() - whether a batch may queue and apply
 * @b: the batch
 *
 * Return: true if @b holds the hotplug lock and text_mutex.
 */
static __always_inline bool text_batch_may_queue(const struct text_batch *b)
{
	return (b->held & TEXT_BATCH_QUEUE) == TEXT_BATCH_QUEUE;
}

/**
 * text_batch_queue_jump() - queue a jump-label site's change
 * @b:     the batch, holding the hotplug lock and text_mutex
 * @entry: the site's jump entry
 * @type:  the instruction the site is to hold
 *
 * Adds the change of @entry's site to @type to the batch. The site must
 * hold the instruction of the other type: the arch checks it and panics,
 * naming the site, the key and both instructions, when it does not (see
 * arch_jump_label_transform_queue()). Nothing is written before
 * text_batch_apply() or text_batch_apply_nx(). A batch without both locks
 * WARNs once and queues nothing.
 *
 * Context: process context, the batch's locks held.
 */
static __always_inline void text_batch_queue_jump(struct text_batch *b,
						  struct jump_entry *entry,
						  enum jump_label_type type)
{
	if (likely(text_batch_may_queue(b)))
		arch_jump_label_transform_queue(entry, type);
	else
		text_batch_refuse(b, TEXT_BATCH_OP_QUEUE);
}

/*
 * The same without the check, for a loop over many sites whose batch
 * passed text_batch_may_queue() before it (a key's walk).
 */
static __always_inline void __text_batch_queue_jump(struct jump_entry *entry,
						    enum jump_label_type type)
{
	arch_jump_label_transform_queue(entry, type);
}

/**
 * text_batch_queue_call() - queue a static call site's change
 * @b:    the batch, holding the hotplug lock and text_mutex
 * @addr: the site, or a trampoline (@tail)
 * @func: the target the site is to call (NULL: none)
 * @tail: the site is a tail call (a jmp) or a trampoline
 *
 * Adds the instruction for @func at @addr (arch_static_call_queue()) to
 * the batch; the caller has checked the site's bytes
 * (arch_static_call_check_site()). Nothing is written before an apply. A
 * batch without both locks WARNs once and queues nothing.
 *
 * Context: process context, the batch's locks held.
 */
static __always_inline void
text_batch_queue_call(struct text_batch *b, void *addr, void *func, bool tail)
{
	if (likely(text_batch_may_queue(b)))
		arch_static_call_queue(addr, func, tail);
	else
		text_batch_refuse(b, TEXT_BATCH_OP_QUEUE);
}

/* The same without the check, as __text_batch_queue_jump(). */
static __always_inline void __text_batch_queue_call(void *addr, void *func,
						    bool tail)
{
	arch_static_call_queue(addr, func, tail);
}

/**
 * text_batch_apply() - write every queued site into live text
 * @b: the batch, holding the hotplug lock and text_mutex
 *
 * Writes every site queued since the last apply with the arch's live
 * protocol (arch_text_batch_apply(TEXT_BATCH_LIVE)). On return every
 * site holds its new instruction on every CPU, and no CPU will execute
 * the old one again. A batch without both locks WARNs once and writes
 * nothing.
 *
 * Context: process context, the batch's locks held; may sleep.
 */
static __always_inline void text_batch_apply(struct text_batch *b)
{
	if (likely(text_batch_may_queue(b)))
		arch_text_batch_apply(TEXT_BATCH_LIVE);
	else
		text_batch_refuse(b, TEXT_BATCH_OP_APPLY);
}

/**
 * text_batch_apply_nx() - write every queued site into text not executable yet
 * @b: the batch, holding the hotplug lock and text_mutex
 *
 * The same for sites that no CPU can fetch yet (a module's text before its
 * final protections): written in one pass, with no sync round
 * (arch_text_batch_apply(TEXT_BATCH_NOT_LIVE)). A site the arch finds
 * executable after all is written as text_batch_apply() would. A batch
 * without both locks WARNs once and writes nothing.
 *
 * Context: process context, the batch's locks held; may sleep.
 */
static __always_inline void text_batch_apply_nx(struct text_batch *b)
{
	if (likely(text_batch_may_queue(b)))
		arch_text_batch_apply(TEXT_BATCH_NOT_LIVE);
	else
		text_batch_refuse(b, TEXT_BATCH_OP_APPLY_NX);
}

#endif /* _LINUX_TEXT_BATCH_H */
