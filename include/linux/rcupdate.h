/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_RCUPDATE_H
#define _LINUX_RCUPDATE_H

#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/preempt.h>

/*
 * Read-copy update, non-preemptible flavour (Documentation/rcu.rst).
 * A reader runs between rcu_read_lock() and rcu_read_unlock() with
 * preemption disabled and must not sleep; sections nest. A grace period
 * ends once every online CPU has passed a quiescent state (a moment with
 * no reader on it) after the grace period began: synchronize_rcu() waits
 * for one, call_rcu() runs its callback after one, in the "rcu_gp"
 * kthread.
 */
struct rcu_head {
	struct rcu_head *next;
	void (*func)(struct rcu_head *head);
};

typedef void (*rcu_callback_t)(struct rcu_head *head);

/* Reader nesting on this CPU (readers never sleep, so per CPU is enough). */
DECLARE_PER_CPU(int, rcu_read_nesting);
/* Set while the current grace period waits for this CPU. */
DECLARE_PER_CPU(int, rcu_qs_pending);

/*
 * This CPU passed a quiescent state: its report, unless irqs_off_ok is
 * false and interrupts are off outside a hardirq (rcu_read_unlock_sched()).
 * Out of line, that test too: an unlock inlines only the tests of
 * rcu_qs_pending and of the nesting.
 */
void rcu_report_qs(bool irqs_off_ok);

static __always_inline void rcu_read_lock(void)
{
	preempt_disable();
	this_cpu_inc(rcu_read_nesting);
	barrier();
}

/* The outermost unlock is a quiescent state: report it if one is awaited. */
static __always_inline void rcu_read_unlock(void)
{
	barrier();
	this_cpu_dec(rcu_read_nesting);
	if (unlikely(this_cpu_read(rcu_qs_pending)) &&
	    !this_cpu_read(rcu_read_nesting))
		rcu_report_qs(true);
	preempt_enable();
}

/*
 * rcu_read_unlock() for readers that may run with a run-queue lock held
 * (the tracepoints in the scheduler): a report wakes rcu_gp, which takes
 * a run-queue lock, so with interrupts off outside a hardirq (where such
 * a lock may be held) the report is left to the CPU's next quiescent
 * state: its next switch, idle loop, tick, or another reader's unlock.
 */
static __always_inline void rcu_read_unlock_sched(void)
{
	barrier();
	this_cpu_dec(rcu_read_nesting);
	if (unlikely(this_cpu_read(rcu_qs_pending)) &&
	    !this_cpu_read(rcu_read_nesting))
		rcu_report_qs(false);
	preempt_enable();
}

static inline bool rcu_read_lock_held(void)
{
	return this_cpu_read(rcu_read_nesting) != 0;
}

/* Hooks: the switch path, the idle loop, the tick (interrupted context). */
static __always_inline void rcu_note_context_switch(void)
{
	if (unlikely(this_cpu_read(rcu_qs_pending)) &&
	    !this_cpu_read(rcu_read_nesting))
		rcu_report_qs(true);
}

#define rcu_idle_qs() rcu_note_context_switch()
#define rcu_tick_qs() rcu_note_context_switch()

/* Pointers: publish with a release store, read with a dependent load. */
#define rcu_assign_pointer(p, v) __atomic_store_n(&(p), (v), __ATOMIC_RELEASE)
#define RCU_INIT_POINTER(p, v) WRITE_ONCE(p, v)
#define rcu_access_pointer(p) READ_ONCE(p)
#define rcu_dereference(p) READ_ONCE(p)
#define rcu_dereference_check(p, c) READ_ONCE(p)
/* The updater holds what keeps p stable (c, documentation only here). */
#define rcu_dereference_protected(p, c) ((void)(c), (p))

void synchronize_rcu(void);
void call_rcu(struct rcu_head *head, rcu_callback_t func);
void rcu_barrier(void);

/* Frees ptr, a kmalloc()ed object with a struct rcu_head field, later. */
#define kfree_rcu(ptr, field)                                               \
	do {                                                                \
		typeof(ptr) ___p = (ptr);                                   \
		BUILD_BUG_ON(offsetof(typeof(*___p), field) >= 4096);       \
		___p->field.func = (rcu_callback_t)(unsigned long)offsetof( \
			typeof(*___p), field);                              \
		__kfree_rcu_queue(&___p->field);                            \
	} while (0)

void __kfree_rcu_queue(struct rcu_head *head);

struct rcu_stats {
	unsigned long gp_completed;
	unsigned long cbs_invoked;
	unsigned long cbs_queued;
	unsigned long kfrees; /* kfree_rcu() objects freed */
	unsigned long fqs_ipis;
	unsigned long eqs_reports; /* for a CPU idle or in user mode */
};
struct rcu_stats rcu_get_stats(void);

#endif /* _LINUX_RCUPDATE_H */
