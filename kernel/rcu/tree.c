// SPDX-License-Identifier: GPL-2.0
/*
 * RCU, non-preemptible flavour, with one grace-period kthread, "rcu_gp".
 *
 * call_rcu() appends to one FIFO list. The kthread takes the whole list,
 * runs a grace period for it, then invokes the callbacks in order, in
 * process context. A grace period:
 *
 * 1. cpus_left = number of online CPUs, then rcu_qs_pending = 1 on each;
 * 2. each CPU reports once (rcu_report_qs(): the flag goes 1 -> 0 by
 *    xchg, so twice is harmless) when it passes a quiescent state: a
 *    switch (__schedule()), the idle loop, a tick or a call-function IPI
 *    that interrupted code outside any reader, or the outermost
 *    rcu_read_unlock(); the last report wakes the kthread;
 * 3. the kthread at once reports for the CPUs that have not reported and
 *    are idle or in user mode (the per-CPU state of <asm/text-sync.h>,
 *    an extended quiescent state: no IPI wakes them), and sends the
 *    others an IPI (rcu_fqs_ipi()), so that busy or tickless CPUs need
 *    not wait for their next switch or tick; a CPU inside a reader then
 *    reports at its rcu_read_unlock().
 *
 * synchronize_rcu() and rcu_barrier() are callbacks that complete a
 * completion, so they share the ordering of call_rcu().
 */
#define pr_fmt(fmt) "rcu: " fmt

#include <linux/kernel.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <asm/barrier.h>
#include <asm/text-sync.h>

DEFINE_PER_CPU(int, rcu_read_nesting);
EXPORT_SYMBOL_GPL(rcu_read_nesting);
DEFINE_PER_CPU(int, rcu_qs_pending);
EXPORT_SYMBOL_GPL(rcu_qs_pending);

static DEFINE_SPINLOCK(rcu_cb_lock);
static struct rcu_head *rcu_cb_head;
static struct rcu_head **rcu_cb_tail = &rcu_cb_head;
/*
 * What the kthread took and has not invoked yet, and the function of the
 * one it is invoking: under rcu_cb_lock, for rcu_callbacks_point_into().
 */
static struct rcu_head *rcu_cb_taken;
static rcu_callback_t rcu_cb_running;
static DECLARE_WAIT_QUEUE_HEAD(rcu_gp_wq);
static atomic_t rcu_cpus_left;
static struct task_struct *rcu_gp_task;
static struct rcu_stats rcu_stats;

/* A CPU's report: its flag goes 1 -> 0 once; the last one wakes rcu_gp. */
static inline void rcu_report_qs_of(int *pending)
{
	if (!__atomic_exchange_n(pending, 0, __ATOMIC_SEQ_CST))
		return;
	if (atomic_dec_and_test(&rcu_cpus_left))
		wake_up_process(rcu_gp_task);
}

/* Step 2: this CPU passed a quiescent state (<linux/rcupdate.h>). */
void rcu_report_qs(bool irqs_off_ok)
{
	if (irqs_off_ok || !irqs_disabled() || in_irq())
		rcu_report_qs_of(this_cpu_ptr(&rcu_qs_pending));
}
EXPORT_SYMBOL_GPL(rcu_report_qs);

/*
 * Step 2 on behalf of @cpu, which is idle or in user mode: it runs no
 * reader there. Its state is read after the flags went up (the smp_mb()
 * of rcu_gp_start()), and it marks itself in the kernel with an xchg
 * before any reader (<asm/text-sync.h>): either this read sees it in the
 * kernel, or its next reader sees everything done before the grace
 * period began. A reader it ran before leaving ended before the store
 * that says it left (x86 orders a load before a later store).
 */
static bool rcu_report_qs_eqs(unsigned int cpu)
{
	if (text_sync_state(cpu) == CT_KERNEL)
		return false;
	rcu_report_qs_of(&per_cpu(rcu_qs_pending, cpu));
	rcu_stats.eqs_reports++;
	return true;
}

/* Step 3, on each other CPU: the interrupted code is not in a reader? */
static void rcu_fqs_ipi(void *unused)
{
	if (!this_cpu_read(rcu_read_nesting))
		rcu_report_qs_of(this_cpu_ptr(&rcu_qs_pending));
}

/*
 * Step 1. The kthread itself is outside any reader: it reports at once.
 * The count is of the CPUs flagged, not num_online_cpus() read apart: a
 * CPU may leave the online mask meanwhile (CPU hotplug), and one that is
 * flagged runs until it has reported (kernel/cpu.c waits for a grace
 * period before stopping it). RCU_GP_BIAS keeps the count above 0 while
 * the flags go up; early reports only bring it down.
 */
#define RCU_GP_BIAS (NR_CPUS + 1)

static void rcu_gp_start(void)
{
	unsigned int cpu, n = 0;

	atomic_set(&rcu_cpus_left, RCU_GP_BIAS);
	smp_mb();
	for_each_online_cpu(cpu) {
		WRITE_ONCE(per_cpu(rcu_qs_pending, cpu), 1);
		n++;
	}
	smp_mb();
	atomic_add(-(int)(RCU_GP_BIAS - n), &rcu_cpus_left);
	rcu_report_qs_of(this_cpu_ptr(&rcu_qs_pending));
}

static bool rcu_gp_done(void)
{
	return atomic_read_acquire(&rcu_cpus_left) == 0;
}

/*
 * Step 3: every other CPU that has not reported yet reports now: an idle
 * or user-mode one at once, here; the others are interrupted.
 */
static void rcu_gp_force(void)
{
	struct cpumask mask;
	unsigned int cpu, n = 0;

	cpumask_clear(&mask);
	for_each_online_cpu(cpu) {
		if (cpu == smp_processor_id() ||
		    !READ_ONCE(per_cpu(rcu_qs_pending, cpu)) ||
		    rcu_report_qs_eqs(cpu))
			continue;
		cpumask_set_cpu(cpu, &mask);
		n++;
	}
	if (!n)
		return;
	rcu_stats.fqs_ipis++;
	smp_call_function_many(&mask, rcu_fqs_ipi, NULL, 0);
}

/* Steps 1-3: returns when every online CPU has reported. */
static void rcu_gp_run(void)
{
	rcu_gp_start();
	if (!rcu_gp_done())
		rcu_gp_force();
	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (rcu_gp_done())
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	WRITE_ONCE(rcu_stats.gp_completed, rcu_stats.gp_completed + 1);
}

/* Takes every queued callback, in order. */
static struct rcu_head *rcu_take_cbs(void)
{
	struct rcu_head *list;
	unsigned long flags;

	spin_lock_irqsave(&rcu_cb_lock, flags);
	list = rcu_cb_head;
	rcu_cb_taken = list;
	rcu_cb_head = NULL;
	rcu_cb_tail = &rcu_cb_head;
	spin_unlock_irqrestore(&rcu_cb_lock, flags);
	return list;
}

/* The callback about to run leaves rcu_cb_taken; its function is shown. */
static void rcu_cb_start(struct rcu_head *next, rcu_callback_t func)
{
	unsigned long flags;

	spin_lock_irqsave(&rcu_cb_lock, flags);
	rcu_cb_taken = next;
	rcu_cb_running = func;
	spin_unlock_irqrestore(&rcu_cb_lock, flags);
}

/* A func below 4096 is kfree_rcu()'s offset of the head in the object. */
static void rcu_invoke_cbs(struct rcu_head *list)
{
	while (list) {
		struct rcu_head *next = list->next;
		unsigned long off = (unsigned long)list->func;

		rcu_cb_start(next, off < 4096 ? NULL : list->func);
		if (off < 4096) {
			kfree((char *)list - off);
			WRITE_ONCE(rcu_stats.kfrees, rcu_stats.kfrees + 1);
		} else {
			list->func(list);
		}
		WRITE_ONCE(rcu_stats.cbs_invoked, rcu_stats.cbs_invoked + 1);
		list = next;
	}
	rcu_cb_start(NULL, NULL);
}

/* The first callback of list whose head or function lies in mod. */
static struct rcu_head *rcu_cb_in(struct rcu_head *list,
				  const struct module *mod)
{
	for (; list; list = list->next)
		if (within_module((unsigned long)list, mod) ||
		    ((unsigned long)list->func >= 4096 &&
		     within_module((unsigned long)list->func, mod)))
			return list;
	return NULL;
}

bool rcu_callbacks_point_into(const struct module *mod, char *buf, size_t len)
{
	struct rcu_head *cb;
	unsigned long flags;
	bool found = true;

	spin_lock_irqsave(&rcu_cb_lock, flags);
	cb = rcu_cb_in(rcu_cb_taken, mod) ?: rcu_cb_in(rcu_cb_head, mod);
	if (rcu_cb_running && within_module((unsigned long)rcu_cb_running, mod))
		snprintf(buf, len, "a running RCU callback (%ps)",
			 rcu_cb_running);
	else if (cb && (unsigned long)cb->func < 4096)
		snprintf(buf, len,
			 "a queued kfree_rcu() of its memory (at %px)", cb);
	else if (cb)
		snprintf(buf, len, "a queued RCU callback (%ps, head at %px)",
			 cb->func, cb);
	else
		found = false;
	spin_unlock_irqrestore(&rcu_cb_lock, flags);
	return found;
}

static int rcu_gp_kthread(void *unused)
{
	struct rcu_head *list;

	for (;;) {
		wait_event(rcu_gp_wq, READ_ONCE(rcu_cb_head) != NULL);
		list = rcu_take_cbs();
		rcu_gp_run();
		rcu_invoke_cbs(list);
	}
	return 0;
}

void call_rcu(struct rcu_head *head, rcu_callback_t func)
{
	unsigned long flags;

	head->func = func;
	head->next = NULL;
	spin_lock_irqsave(&rcu_cb_lock, flags);
	*rcu_cb_tail = head;
	rcu_cb_tail = &head->next;
	rcu_stats.cbs_queued++;
	spin_unlock_irqrestore(&rcu_cb_lock, flags);
	wake_up(&rcu_gp_wq);
}
EXPORT_SYMBOL_GPL(call_rcu);

void __kfree_rcu_queue(struct rcu_head *head)
{
	call_rcu(head, head->func);
}
EXPORT_SYMBOL_GPL(__kfree_rcu_queue);

struct rcu_synchronize {
	struct rcu_head head;
	struct completion done;
};

static void rcu_wakeme(struct rcu_head *head)
{
	complete(&container_of(head, struct rcu_synchronize, head)->done);
}

/* Queues a waker and sleeps until the kthread invokes it. */
static void rcu_wait_behind_cbs(void)
{
	struct rcu_synchronize rs;

	init_completion(&rs.done);
	call_rcu(&rs.head, rcu_wakeme);
	wait_for_completion(&rs.done);
}

void synchronize_rcu(void)
{
	/* The misuse that would deadlock is named as such; then the rest. */
	if (WARN_ONCE(
		    rcu_read_lock_held(),
		    "synchronize_rcu() inside an RCU reader, called from %pS\n",
		    __builtin_return_address(0)))
		return;
	might_sleep();
	rcu_wait_behind_cbs();
}
EXPORT_SYMBOL_GPL(synchronize_rcu);

/* Callbacks run in queue order, so the waker runs after all earlier ones. */
void rcu_barrier(void)
{
	might_sleep();
	rcu_wait_behind_cbs();
}
EXPORT_SYMBOL_GPL(rcu_barrier);

struct rcu_stats rcu_get_stats(void)
{
	struct rcu_stats s;
	unsigned long flags;

	spin_lock_irqsave(&rcu_cb_lock, flags);
	s = rcu_stats;
	spin_unlock_irqrestore(&rcu_cb_lock, flags);
	return s;
}
EXPORT_SYMBOL_GPL(rcu_get_stats);

static int __init rcu_init(void)
{
	rcu_gp_task = kthread_run(rcu_gp_kthread, NULL, "rcu_gp");
	if (IS_ERR(rcu_gp_task))
		panic("rcu: cannot create the rcu_gp kthread");
	return 0;
}
early_initcall(rcu_init);
