// SPDX-License-Identifier: GPL-2.0
/*
 * The scheduler: a FIFO run queue per CPU, round robin among its tasks,
 * the idle task when it is empty. User tasks move between CPUs to use
 * them all: a wake-up places one on an idle CPU when its own is busy, an
 * idle CPU pulls one from a busy CPU's queue, sched_setaffinity() moves
 * one into its mask; kernel threads stay where they are. See
 * Documentation/sched.rst for the rules; the short version:
 *
 * - rq->lock is taken with interrupts off and is held across the switch:
 *   the task that gets the CPU releases it (finish_task_switch()), so a
 *   wake-up on another CPU never sees a task half switched out;
 * - prev->state is read under rq->lock: a task that is no longer
 *   TASK_RUNNING when it calls schedule() leaves the queue, unless it got
 *   there through preemption;
 * - the preempt count belongs to the task: saved and restored around the
 *   switch.
 */
#define pr_fmt(fmt) "sched: " fmt

#include <linux/kernel.h>
#include <linux/completion.h>
#include <linux/cpuhotplug.h>
#include <linux/delay.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/jiffies.h>
#include <linux/moduleparam.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/warn_record.h>
#include <linux/workqueue.h>
#include <trace/events/sched.h>
#include <asm/user.h>

#define SCHED_DRAIN_TIMEOUT_MS 5000
#define SCHED_SLICE_TICKS                            \
	(CONFIG_SCHED_SLICE_MS * HZ / 1000 ?         \
		 CONFIG_SCHED_SLICE_MS * HZ / 1000 : \
		 1)

struct rq {
	spinlock_t lock;
	struct list_head queue; /* runnable tasks waiting for the CPU */
	unsigned int nr_queued;
	struct task_struct *idle;
	struct sched_stats stats;
	struct sched_schedstats schedstats;
	/*
	 * The CPU is going offline (sched_cpu_drain()): __schedule() runs
	 * only the idle task here and parks every other runnable task on
	 * pushed, which the idle task moves to active CPUs.
	 */
	bool draining;
	struct list_head pushed;
};

static struct task_struct idle_tasks[NR_CPUS] = {
	[0 ... NR_CPUS - 1] = { .flags = PF_IDLE | PF_KTHREAD },
};
/* Valid from the first instruction: the boot context is swapper/0. */
DEFINE_PER_CPU(struct task_struct *, current_task) = &idle_tasks[0];
/* current, preempt_disable() and spin_lock() in a module read these. */
EXPORT_SYMBOL(current_task);
DEFINE_PER_CPU(int, __preempt_count) = PREEMPT_ENABLED;
EXPORT_SYMBOL(__preempt_count);
DEFINE_PER_CPU(int, sched_need_resched);
static DEFINE_PER_CPU(struct rq, runqueues);
enum system_states system_state;

static struct rq *cpu_rq(unsigned int cpu)
{
	return per_cpu_ptr(&runqueues, cpu);
}

/* p may run on cpu (its affinity; every task may on a draining CPU's). */
static __always_inline bool task_allowed(struct task_struct *p,
					 unsigned int cpu)
{
	return p->cpus_allowed & (1ULL << cpu);
}

/*
 * On from the late initcall sched_spread_init() if more than one CPU is
 * online then (it stays on): the wake-up's placement and the idle pull
 * cost one NOP on a machine of one CPU.
 */
static DEFINE_STATIC_KEY_FALSE(sched_spread_key);

/* More than one CPU is active: user tasks are spread over them. */
static __always_inline bool sched_spreads(void)
{
	unsigned long m;

	if (!static_branch_unlikely(&sched_spread_key))
		return false;
	m = READ_ONCE(cpu_active_mask->bits[0]);
	return m & (m - 1);
}

static int __init sched_spread_init(void)
{
	if (num_online_cpus() > 1)
		static_branch_enable(&sched_spread_key);
	return 0;
}
late_initcall(sched_spread_init);

/* The run-queue lock with interrupts already off (__schedule()). */
static void __rq_lock(struct rq *rq)
{
	preempt_count_add(1);
	do_raw_spin_lock(&rq->lock);
}

static void __rq_unlock(struct rq *rq)
{
	do_raw_spin_unlock(&rq->lock);
	preempt_count_sub(1);
}

static void rq_lock(struct rq *rq, unsigned long *flags)
{
	local_irq_save(*flags);
	__rq_lock(rq);
}

static void rq_unlock(struct rq *rq, unsigned long flags)
{
	__rq_unlock(rq);
	local_irq_restore(flags);
}

/*
 * The static keys of the switch and wake-up paths, as in Linux: the
 * schedstats, the preempt notifiers, and the sched tracepoints
 * (<trace/events/sched.h>, keys of their own). Each is one NOP there
 * while off.
 */
DEFINE_STATIC_KEY_FALSE(sched_schedstats);
static DEFINE_STATIC_KEY_FALSE(preempt_notifier_key);

/* The schedstats' clock: every schedstat block reads it anew. */
static u64 schedstat_clock(void)
{
	return ktime_get_ns();
}

/* p joins a run queue: it waits from now on. */
static void __schedstat_wait_start(struct task_struct *p)
{
	p->stats.wait_start = schedstat_clock();
}

/* p gets the CPU: the end of its wait, if it waited. */
static void __schedstat_wait_end(struct rq *rq, struct task_struct *p)
{
	u64 delta;

	if (p == rq->idle) {
		rq->schedstats.sched_goidle++;
		return;
	}
	if (!p->stats.wait_start)
		return;
	delta = schedstat_clock() - p->stats.wait_start;
	p->stats.wait_start = 0;
	p->stats.wait_count++;
	p->stats.wait_sum += delta;
	p->stats.wait_max = max(p->stats.wait_max, delta);
}

/* p is woken on rq's CPU: a wake-up counted, the end of its sleep. */
static void __schedstat_wakeup(struct rq *rq, struct task_struct *p)
{
	u64 delta;
	bool local = p->cpu == smp_processor_id();

	rq->schedstats.ttwu_count++;
	rq->schedstats.ttwu_local += local;
	p->stats.nr_wakeups++;
	p->stats.nr_wakeups_local += local;
	p->stats.nr_wakeups_remote += !local;
	if (!p->stats.sleep_start)
		return;
	delta = schedstat_clock() - p->stats.sleep_start;
	p->stats.sleep_start = 0;
	p->stats.sum_sleep_runtime += delta;
	p->stats.sleep_max = max(p->stats.sleep_max, delta);
}

void sched_set_schedstats(bool enabled)
{
	if (enabled)
		static_branch_enable(&sched_schedstats);
	else
		static_branch_disable(&sched_schedstats);
}

struct sched_schedstats sched_cpu_schedstats(unsigned int cpu)
{
	struct sched_schedstats s;
	unsigned long flags;
	struct rq *rq = cpu_rq(cpu);

	rq_lock(rq, &flags);
	s = rq->schedstats;
	rq_unlock(rq, flags);
	return s;
}

/* schedstats=enable|disable on the command line: applied at initcall. */
static int schedstats_boot = -1;

static int __init setup_schedstats(char *val)
{
	if (!strcmp(val, "enable"))
		schedstats_boot = 1;
	else if (!strcmp(val, "disable"))
		schedstats_boot = 0;
	else
		pr_warn("schedstats=%s: neither enable nor disable, ignored\n",
			val);
	return 0;
}
__setup("schedstats", setup_schedstats);

static int __init sched_init_schedstats(void)
{
	if (schedstats_boot == 1)
		sched_set_schedstats(true);
	if (schedstats_boot >= 0)
		pr_info("schedstats %sabled\n", schedstats_boot ? "en" : "dis");
	return 0;
}
device_initcall(sched_init_schedstats);

void preempt_notifier_inc(void)
{
	static_branch_inc(&preempt_notifier_key);
}

void preempt_notifier_dec(void)
{
	static_branch_dec(&preempt_notifier_key);
}

void preempt_notifier_register(struct preempt_notifier *notifier)
{
	WARN(!static_branch_unlikely(&preempt_notifier_key),
	     "registering preempt_notifier while notifiers disabled\n");
	hlist_add_head(&notifier->link, &current->preempt_notifiers);
}

void preempt_notifier_unregister(struct preempt_notifier *notifier)
{
	hlist_del_init(&notifier->link);
}

static void __fire_sched_in_preempt_notifiers(struct task_struct *curr)
{
	struct hlist_node *n;

	for (n = curr->preempt_notifiers.first; n; n = n->next) {
		struct preempt_notifier *pn =
			hlist_entry(n, struct preempt_notifier, link);

		pn->ops->sched_in(pn, smp_processor_id());
	}
}

static void __fire_sched_out_preempt_notifiers(struct task_struct *curr,
					       struct task_struct *next)
{
	struct hlist_node *n;

	for (n = curr->preempt_notifiers.first; n; n = n->next) {
		struct preempt_notifier *pn =
			hlist_entry(n, struct preempt_notifier, link);

		pn->ops->sched_out(pn, next);
	}
}

static __always_inline void
fire_sched_in_preempt_notifiers(struct task_struct *curr)
{
	if (static_branch_unlikely(&preempt_notifier_key))
		__fire_sched_in_preempt_notifiers(curr);
}

static __always_inline void
fire_sched_out_preempt_notifiers(struct task_struct *curr,
				 struct task_struct *next)
{
	if (static_branch_unlikely(&preempt_notifier_key))
		__fire_sched_out_preempt_notifiers(curr, next);
}

/* Another task should run on this CPU. */
static void set_need_resched(void)
{
	this_cpu_write(sched_need_resched, 1);
	preempt_fold_need_resched();
}

/*
 * A task was queued on cpu (its rq->lock held): an idle cpu must pick it
 * now, by IPI if it is another CPU. A busy cpu keeps its task until the
 * task's slice ends or it gives up the CPU (no wake-up preemption).
 */
static void resched_cpu(unsigned int cpu)
{
	if (per_cpu(current_task, cpu) != cpu_rq(cpu)->idle)
		return;
	if (cpu == smp_processor_id()) {
		set_need_resched();
		return;
	}
	/* Folded by the IPI's do_irq() on cpu (sched_fold_need_resched()). */
	per_cpu(sched_need_resched, cpu) = 1;
	arch_smp_send_reschedule(cpu);
}

static void enqueue_task(struct rq *rq, struct task_struct *p)
{
	list_add_tail(&p->run_list, &rq->queue);
	rq->nr_queued++;
	if (schedstat_enabled())
		__schedstat_wait_start(p);
}

static struct task_struct *pick_next_task(struct rq *rq)
{
	struct task_struct *p;

	if (rq->draining) { /* everything queued leaves: see struct rq */
		list_splice_tail_init(&rq->queue, &rq->pushed);
		rq->nr_queued = 0;
	}
	if (list_empty(&rq->queue))
		return rq->idle;
	p = list_first_entry(&rq->queue, struct task_struct, run_list);
	list_del_init(&p->run_list);
	rq->nr_queued--;
	return p;
}

static LIST_HEAD(dead_tasks);
static DEFINE_SPINLOCK(dead_lock);
/*
 * Tasks in do_exit() that task_reap_dead() has not yet freed: switched
 * out or not, on dead_tasks or taken from it by a reaper (any CPU's idle
 * task reaps too) that is still freeing them.
 */
static atomic_t nr_exiting = ATOMIC_INIT(0);

/*
 * Runs on the CPU prev left, on the next task's stack, rq->lock held. A
 * dead prev goes on dead_tasks for task_reap_dead(); after on_cpu = 0 prev
 * may be freed by kthread_stop(), so it is the last touch.
 */
static void finish_task_switch(struct task_struct *prev)
{
	if (prev->state == TASK_DEAD) {
		do_raw_spin_lock(&dead_lock);
		list_add_tail(&prev->run_list, &dead_tasks);
		do_raw_spin_unlock(&dead_lock);
	}
	__atomic_store_n(&prev->on_cpu, 0, __ATOMIC_RELEASE);
	fire_sched_in_preempt_notifiers(current);
}

/* Returns the task this CPU switched from when current runs again. */
static struct task_struct *context_switch(struct task_struct *prev,
					  struct task_struct *next)
{
	int pc = this_cpu_read(__preempt_count);

	prev->preempt_count = pc & ~PREEMPT_NEED_RESCHED;
	this_cpu_write(__preempt_count,
		       next->preempt_count | (pc & PREEMPT_NEED_RESCHED));
	next->on_cpu = 1;
	next->slice_ticks = 0;
	this_cpu_write(current_task, next);
	if (prev->proc || next->proc) /* page tables, FPU, kernel stack */
		arch_switch_user(prev, next);
	return __switch_to_asm(prev, next);
}

static void sched_push_task(struct task_struct *p);

/* The pushed tasks of this draining CPU go to active CPUs. Idle task. */
static void sched_push_pushed(struct rq *rq)
{
	struct list_head list;
	unsigned long flags;

	INIT_LIST_HEAD(&list);
	rq_lock(rq, &flags);
	list_splice_tail_init(&rq->pushed, &list);
	rq_unlock(rq, flags);
	while (!list_empty(&list)) {
		struct task_struct *p =
			list_first_entry(&list, struct task_struct, run_list);

		list_del_init(&p->run_list);
		sched_push_task(p);
	}
}

/* The first code of a new task, from ret_from_kthread (switch_64.S). */
__visible void schedule_tail(struct task_struct *prev)
{
	finish_task_switch(prev);
	__rq_unlock(cpu_rq(smp_processor_id()));
	local_irq_enable();
}

/*
 * 1. take rq->lock, interrupts off; 2. put prev back at the tail if it
 * stays runnable (preempted, or TASK_RUNNING), else take it off the queue;
 * 3. pick the head (or idle); 4. switch; 5. finish the switch and unlock
 * as the task that now runs.
 */
static void __schedule(bool preempt)
{
	struct task_struct *prev = current, *next;
	unsigned long irqs;
	struct rq *rq;
	long prev_state;

	/*
	 * Interrupts go off before the run queue is chosen. With them on, an
	 * interrupt here may preempt prev and move it (a draining CPU pushes
	 * its tasks away): prev would then lock, pick from and run the queue
	 * of the CPU it left, another CPU's idle task among them.
	 */
	local_irq_save(irqs);
	rcu_note_context_switch();
	rq = this_cpu_ptr(&runqueues);
	__rq_lock(rq);
	this_cpu_write(sched_need_resched, 0);
	preempt_clear_need_resched();
	schedstat_inc(rq->schedstats.sched_count);
	prev_state = READ_ONCE(prev->state);
	if (!preempt && prev_state != TASK_RUNNING) {
		prev->on_rq = 0;
		prev->nvcsw++; /* it leaves the queue: next is another task */
		if (schedstat_enabled())
			prev->stats.sleep_start = schedstat_clock();
	} else if (prev->flags & PF_IDLE) {
	} else if (rq->draining) {
		list_add_tail(&prev->run_list, &rq->pushed);
		prev->nivcsw++;
	} else {
		enqueue_task(rq, prev);
		prev->nivcsw++; /* undone below if it stays */
	}
	next = pick_next_task(rq);
	if (schedstat_enabled())
		__schedstat_wait_end(rq, next);
	if (next != prev) {
		rq->stats.switches++;
		if (preempt)
			rq->stats.preemptions++;
		trace_sched_switch(preempt, prev, next, prev_state);
		fire_sched_out_preempt_notifiers(prev, next);
		prev = context_switch(prev, next);
		/* This task may have moved while it was out: lock of here. */
		rq = this_cpu_ptr(&runqueues);
		finish_task_switch(prev);
	} else if (!(prev->flags & PF_IDLE)) {
		prev->nivcsw--; /* picked again: no switch */
	}
	__rq_unlock(rq);
	local_irq_restore(irqs);
}

bool sched_may_sleep(void)
{
	return preemptible() && !(current->flags & PF_IDLE);
}
EXPORT_SYMBOL_GPL(sched_may_sleep);

/* The callers might_sleep() reported, so that each is reported once. */
DEFINE_WARN_RECORD(might_sleep_warned, 64);

/* True the first time caller is seen; past the record's end, always. */
static bool might_sleep_first(unsigned long caller)
{
	return warn_record_first(&might_sleep_warned, (void *)caller, 0);
}

/* The report of __might_sleep(): out of line, so the check needs no frame. */
static noinline void might_sleep_report(const char *file, int line,
					unsigned long caller)
{
	int pc = preempt_count();
	bool irqs_off = irqs_disabled();

	if (!might_sleep_first(caller))
		return;
	__warn(file, line, caller,
	       "BUG: sleeping function called from invalid context by %pS\n"
	       "in_atomic(): %d, irqs_disabled(): %d, pid: %d, name: %s, preempt_count: %#x\n",
	       (void *)caller, pc != 0, irqs_off, current->pid, current->comm,
	       pc);
}

void __might_sleep(const char *file, int line, unsigned long caller)
{
	/* Every mutex_lock() asks: only a report needs more than this. */
	if (system_state < SYSTEM_SCHEDULING || sched_may_sleep())
		return;
	might_sleep_report(file, line, caller);
}
EXPORT_SYMBOL(__might_sleep);

void schedule(void)
{
	WARN_ONCE(preempt_count(), "BUG: scheduling while atomic: %s/%d/%#x\n",
		  current->comm, current->pid, preempt_count());
	__schedule(false);
}
EXPORT_SYMBOL(schedule);

void yield(void)
{
	this_cpu_ptr(&runqueues)->stats.yields++;
	schedstat_inc(this_cpu_ptr(&runqueues)->schedstats.yld_count);
	__set_current_state(TASK_RUNNING);
	__schedule(false);
}
EXPORT_SYMBOL(yield);

bool cond_resched(void)
{
	if (!need_resched() || !preemptible())
		return false;
	__schedule(true);
	return true;
}
EXPORT_SYMBOL(cond_resched);

/* From preempt_enable() at count 0: interrupts must be on too. */
void preempt_schedule(void)
{
	if (preempt_count() || irqs_disabled())
		return;
	do {
		__schedule(true);
	} while (need_resched());
}
EXPORT_SYMBOL(preempt_schedule);

/* From an interrupt's return path: interrupts off, count 0. */
void preempt_schedule_irq(void)
{
	do {
		__schedule(true);
	} while (need_resched());
}

/*
 * Locks the run queue of p's CPU. p->cpu changes under that lock (a
 * sleeping task moved) or while p is in flight between two queues (see
 * sched_push_task()), so it is checked again once the lock is held.
 */
static inline struct rq *task_rq_lock(struct task_struct *p,
				      unsigned long *flags)
{
	for (;;) {
		unsigned int cpu = READ_ONCE(p->cpu);
		struct rq *rq = cpu_rq(cpu);

		rq_lock(rq, flags);
		if (READ_ONCE(p->cpu) == cpu)
			return rq;
		rq_unlock(rq, *flags);
	}
}

/*
 * An active CPU for a task that cannot stay where it is: round robin
 * among those of its mask, or among all if none of them is active (its
 * affinity is broken then, as Linux breaks it).
 */
static unsigned int select_fallback_cpu(struct task_struct *p)
{
	static unsigned int next;
	u64 mask = p->cpus_allowed & cpu_active_mask->bits[0];
	unsigned int n, i = 0, cpu, pick;

	if (!mask)
		mask = cpu_active_mask->bits[0];
	for (n = 0, cpu = 0; cpu < 64; cpu++)
		n += (mask >> cpu) & 1;
	pick = __atomic_fetch_add(&next, 1, __ATOMIC_RELAXED) % (n ? n : 1);
	for (cpu = 0; cpu < NR_CPUS && cpu < 64; cpu++)
		if (cpu_active(cpu) && (mask & (1ULL << cpu)) && i++ == pick)
			return cpu;
	return 0; /* the mask changed meanwhile; the boot CPU stays */
}

/* Queues p, in flight (on_rq, on no queue, running nowhere), on cpu. */
static void sched_queue_on(struct task_struct *p, unsigned int cpu)
{
	struct rq *rq = cpu_rq(cpu);
	unsigned long flags;

	rq_lock(rq, &flags);
	WRITE_ONCE(p->cpu, cpu);
	enqueue_task(rq, p);
	resched_cpu(cpu);
	rq_unlock(rq, flags);
}

/*
 * p is runnable (on_rq set) but on no queue and running nowhere: queue it
 * on an active CPU it may run on. Nobody else touches p meanwhile (a
 * wake-up sees it runnable and does nothing), so p->cpu may change here.
 */
static void sched_push_task(struct task_struct *p)
{
	unsigned int cpu = select_fallback_cpu(p);

	cpu_rq(cpu)->stats.migrations++;
	sched_queue_on(p, cpu);
}

/*
 * cpu runs its idle task with nothing queued (a racy look: a hint). Its
 * lock held by another counts as busy: a switch takes its task off the
 * queue before it makes it current, both under rq->lock. The caller that
 * holds that lock itself (a wake-up on p's own CPU) says so with @mine.
 */
static bool __cpu_idle_now(unsigned int cpu, bool mine)
{
	struct rq *rq = cpu_rq(cpu);

	return !READ_ONCE(rq->nr_queued) &&
	       READ_ONCE(per_cpu(current_task, cpu)) == rq->idle &&
	       (mine || !spin_is_locked(&rq->lock));
}

static bool cpu_idle_now(unsigned int cpu)
{
	return __cpu_idle_now(cpu, false);
}

/*
 * Where a user task p waking up runs: its own CPU if it is idle (and p
 * may run there), else the first idle active CPU of its mask after it,
 * else its own (or a fallback if it may not stay there). The caller holds
 * the lock of p's run queue: that lock does not make p's CPU look busy
 * (it did, and every task that slept on an idle CPU woke on another, one
 * that might be running a long interrupt on its idle task).
 */
static unsigned int select_task_rq(struct task_struct *p)
{
	unsigned int prev = p->cpu, cpu, i, n = NR_CPUS;
	bool allowed = task_allowed(p, prev) && cpu_active(prev);

	if (allowed && __cpu_idle_now(prev, true))
		return prev;
	for (i = 1; i < n; i++) {
		cpu = (prev + i) % n;
		if (cpu_active(cpu) && task_allowed(p, cpu) &&
		    cpu_idle_now(cpu))
			return cpu;
	}
	return allowed ? prev : select_fallback_cpu(p);
}

void kick_process(struct task_struct *p)
{
	unsigned int cpu = READ_ONCE(p->cpu);

	if (cpu != smp_processor_id() && READ_ONCE(p->on_cpu))
		arch_smp_send_reschedule(cpu);
}

/*
 * A sleeping task wakes up on its CPU's queue; a user task on an idle CPU
 * if its own is busy (select_task_rq()): it is in flight meanwhile, as
 * sched_push_task() has it, and queued there once this lock is free.
 */
bool wake_up_process(struct task_struct *p)
{
	unsigned long flags;
	bool woke = false, push = false;
	unsigned int to = NR_CPUS;
	struct rq *rq = task_rq_lock(p, &flags);

	if (p->state != TASK_RUNNING && p->state != TASK_DEAD) {
		trace_sched_waking(p);
		WRITE_ONCE(p->state, TASK_RUNNING);
		woke = true;
		if (!p->on_rq) {
			p->on_rq = 1;
			rq->stats.wakeups++;
			if (schedstat_enabled())
				__schedstat_wakeup(rq, p);
			/* Its CPU is going or gone: it wakes up elsewhere. */
			if (unlikely(rq->draining)) {
				push = true;
			} else if (unlikely(sched_spreads()) && p->proc &&
				   (to = select_task_rq(p)) != p->cpu) {
				/* in flight: queued on to below */
			} else {
				to = NR_CPUS;
				enqueue_task(rq, p);
				resched_cpu(p->cpu);
			}
		}
		trace_sched_wakeup(p);
	}
	rq_unlock(rq, flags);
	if (push)
		sched_push_task(p);
	if (to != NR_CPUS) {
		cpu_rq(to)->stats.wake_moves++;
		sched_queue_on(p, to);
	}
	return woke;
}
EXPORT_SYMBOL(wake_up_process);

bool sched_move_sleeping_task(struct task_struct *p, unsigned int cpu)
{
	unsigned long flags;
	struct rq *rq = task_rq_lock(p, &flags);
	bool moved = !p->on_rq;

	/* Off the queue under its rq->lock: it is not running either. */
	if (moved)
		WRITE_ONCE(p->cpu, cpu);
	rq_unlock(rq, flags);
	return moved;
}

int sched_setaffinity(struct task_struct *p, u64 mask)
{
	unsigned long flags;
	struct rq *rq;
	unsigned int cpu;

	if (!(mask & cpu_active_mask->bits[0]))
		return -EINVAL;
	rq = task_rq_lock(p, &flags);
	p->cpus_allowed = mask;
	cpu = p->cpu;
	if (task_allowed(p, cpu)) {
		rq_unlock(rq, flags);
		return 0;
	}
	if (!p->on_rq) { /* asleep: it wakes up where it may run */
		WRITE_ONCE(p->cpu, select_fallback_cpu(p));
		rq_unlock(rq, flags);
		return 0;
	}
	if (!p->on_cpu && !list_empty(&p->run_list)) { /* queued */
		list_del_init(&p->run_list);
		rq->nr_queued--;
		rq_unlock(rq, flags);
		sched_push_task(p);
		return 0;
	}
	/*
	 * Running: it moves when it next wakes up (select_task_rq()) or an
	 * idle CPU of its mask pulls it; the current task may move itself
	 * now with sched_move_current().
	 */
	rq_unlock(rq, flags);
	return 0;
}

struct sched_move {
	struct work_struct work;
	struct task_struct *task;
	unsigned int cpu;
};

/* A kworker: once the mover is asleep off its CPU, it wakes on cpu. */
static void sched_move_work(struct work_struct *work)
{
	struct sched_move *m = container_of(work, struct sched_move, work);
	struct task_struct *t = m->task;

	while (!sched_move_sleeping_task(t, m->cpu))
		yield();
	wake_up_process(t);
}

/*
 * The current task, running on a CPU its mask does not hold, goes to
 * sleep and a kworker wakes it on one that it does: returns there, once
 * the kworker is done with the work, which lives on this stack.
 */
void sched_move_current(void)
{
	struct sched_move m = { .task = current };

	if (task_allowed(current, smp_processor_id()))
		return;
	m.cpu = select_fallback_cpu(current);
	INIT_WORK(&m.work, sched_move_work);
	set_current_state(TASK_UNINTERRUPTIBLE);
	schedule_work(&m.work);
	for (;;) {
		schedule();
		if (READ_ONCE(current->cpu) == m.cpu)
			break;
		set_current_state(TASK_UNINTERRUPTIBLE); /* woken early */
	}
	__set_current_state(TASK_RUNNING);
	while (work_pending(&m.work) || READ_ONCE(m.work.running))
		yield(); /* the kworker still returns from it */
}

/*
 * An idle CPU takes a user task waiting in the queue of a CPU busy with
 * another task, one it may run: true if it queued one here.
 */
static bool sched_pull_task(unsigned int this)
{
	struct task_struct *p, *found = NULL;
	unsigned long flags;
	unsigned int cpu;
	struct rq *rq;

	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		rq = cpu_rq(cpu);
		/* A CPU busy with another task (an idle one runs its queue). */
		if (cpu == this || !cpu_active(cpu) ||
		    !READ_ONCE(rq->nr_queued) ||
		    READ_ONCE(per_cpu(current_task, cpu)) == rq->idle)
			continue;
		rq_lock(rq, &flags);
		list_for_each_entry(p, &rq->queue, run_list) {
			if (p->proc && task_allowed(p, this)) {
				found = p;
				list_del_init(&p->run_list);
				rq->nr_queued--;
				break;
			}
		}
		rq_unlock(rq, flags);
		if (found)
			break;
	}
	if (!found)
		return false;
	cpu_rq(this)->stats.pulls++;
	sched_queue_on(found, this);
	return true;
}

/* From the tick, interrupts off: ends the current task's slice. */
void scheduler_tick(void)
{
	struct task_struct *p = current;

	if (!p || (p->flags & PF_IDLE))
		return;
	if (++p->slice_ticks >= SCHED_SLICE_TICKS &&
	    READ_ONCE(this_cpu_ptr(&runqueues)->nr_queued))
		set_need_resched();
}

/* After any interrupt: a reschedule another CPU asked for takes effect. */
void sched_fold_need_resched(void)
{
	if (this_cpu_read(sched_need_resched))
		preempt_fold_need_resched();
}

struct sched_stats sched_cpu_stats(unsigned int cpu)
{
	return cpu_rq(cpu)->stats;
}
EXPORT_SYMBOL_GPL(sched_cpu_stats);

unsigned int sched_nr_running(unsigned int cpu)
{
	return READ_ONCE(cpu_rq(cpu)->nr_queued);
}

/* The running context of cpu becomes its idle task, pid 0. */
static void init_idle(unsigned int cpu)
{
	struct task_struct *idle = &idle_tasks[cpu];
	struct rq *rq = cpu_rq(cpu);

	spin_lock_init(&rq->lock);
	INIT_LIST_HEAD(&rq->queue);
	INIT_LIST_HEAD(&rq->pushed);
	rq->idle = idle;
	idle->flags = PF_IDLE | PF_KTHREAD;
	idle->cpu = cpu;
	idle->on_rq = 1;
	idle->on_cpu = 1;
	INIT_LIST_HEAD(&idle->run_list);
	atomic_set(&idle->usage, 1);
	snprintf(idle->comm, sizeof(idle->comm), "swapper/%u", cpu);
	per_cpu(current_task, cpu) = idle;
}

/* After setup_per_cpu_areas(): every run queue, and the boot CPU's idle. */
void __init sched_init(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		init_idle(cpu);
	pr_info("%u run queues, %d ms slices\n", num_possible_cpus(),
		jiffies_to_msecs(SCHED_SLICE_TICKS));
}

/*
 * An AP's first C code, once its GS base is set: at boot, and each time
 * the CPU comes back online, when its idle task starts afresh.
 */
void sched_init_ap(unsigned int cpu)
{
	struct task_struct *idle = &idle_tasks[cpu];

	this_cpu_write(current_task, idle);
	this_cpu_write(__preempt_count, PREEMPT_ENABLED);
	this_cpu_write(sched_need_resched, 0);
	idle->preempt_count = 0;
	idle->on_cpu = 1;
}

static void sched_drain_ipi(void *unused)
{
	struct rq *rq = this_cpu_ptr(&runqueues);
	unsigned long flags;

	rq_lock(rq, &flags);
	rq->draining = true;
	rq_unlock(rq, flags);
	set_need_resched(); /* the running task leaves at the interrupt's end */
}

static bool sched_cpu_drained(unsigned int cpu)
{
	struct rq *rq = cpu_rq(cpu);

	return !READ_ONCE(rq->nr_queued) && list_empty(&rq->pushed) &&
	       READ_ONCE(per_cpu(current_task, cpu)) == rq->idle;
}

int sched_cpu_deactivate(unsigned int cpu)
{
	unsigned int ms;

	set_cpu_active(cpu, false);
	smp_call_function_single(cpu, sched_drain_ipi, NULL, 1);
	for (ms = 0; ms < SCHED_DRAIN_TIMEOUT_MS; ms++) {
		if (sched_cpu_drained(cpu))
			return 0;
		msleep(1);
	}
	pr_err("CPU%u still runs %s/%d after %d ms (preemption off?): it stays online\n",
	       cpu, per_cpu(current_task, cpu)->comm,
	       per_cpu(current_task, cpu)->pid, SCHED_DRAIN_TIMEOUT_MS);
	sched_cpu_activate(cpu);
	return -EBUSY;
}

int sched_cpu_activate(unsigned int cpu)
{
	struct rq *rq = cpu_rq(cpu);
	unsigned long flags;

	rq_lock(rq, &flags);
	rq->draining = false;
	rq_unlock(rq, flags);
	set_cpu_active(cpu, true);
	return 0;
}

/* What the idle task does, forever: reap, then halt until needed. */
void __noreturn cpu_idle(void)
{
	struct rq *rq = this_cpu_ptr(&runqueues);

	for (;;) {
		if (!list_empty(&dead_tasks))
			task_reap_dead();
		if (unlikely(rq->draining)) {
			sched_push_pushed(rq);
			cpuhp_idle_check_dead();
		} else if (sched_spreads() &&
			   sched_pull_task(smp_processor_id())) {
			continue;
		}
		rcu_idle_qs();
		local_irq_disable();
		if (need_resched()) {
			local_irq_enable();
			schedule();
			continue;
		}
		arch_cpu_idle_halt(); /* sti; hlt, counted idle: text-sync.h */
	}
}

/*
 * Tasks that called do_exit() and are not freed yet: a waiter woken by an
 * exit (wait4, kthread_stop()) may run before the dead task has switched
 * out on its CPU, and a reaper on another CPU may be freeing it while
 * this one finds the dead list empty. Tests that count memory reap and
 * wait for 0.
 */
unsigned int nr_tasks_exiting(void)
{
	return atomic_read(&nr_exiting);
}
EXPORT_SYMBOL_GPL(nr_tasks_exiting);

/* task_reap_dead() has freed one task of the dead list. */
void sched_dead_reaped(void)
{
	atomic_dec(&nr_exiting);
}

/* Takes the whole dead list (for kernel/sched/task.c). */
void sched_take_dead(struct list_head *out)
{
	unsigned long flags;

	INIT_LIST_HEAD(out);
	local_irq_save(flags);
	do_raw_spin_lock(&dead_lock);
	while (!list_empty(&dead_tasks)) {
		struct list_head *n = dead_tasks.next;

		list_del_init(n);
		list_add_tail(n, out);
	}
	do_raw_spin_unlock(&dead_lock);
	local_irq_restore(flags);
}

/* The end of a task: never returns; its stack is freed after the switch. */
void __noreturn do_exit(void)
{
	lockorder_task_exit();
	/* Not preemptible from here: whoever complete() wakes finds us dead. */
	preempt_disable();
	atomic_inc(&nr_exiting);
	if (current->exit_done)
		complete(current->exit_done);
	__set_current_state(TASK_DEAD);
	__schedule(false);
	BUG();
}
