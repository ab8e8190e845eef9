// SPDX-License-Identifier: GPL-2.0
/*
 * system_wq: one worklist and one bound kworker per online CPU. One lock
 * (irqsave: timer callbacks queue) guards every worklist and the private
 * fields of every item; it is never held while an item runs or a task
 * waits. A work's seq counts its queueings that reached a worklist (a
 * cancelled one is taken back) and done the last that finished, so
 * flush_work() waits for done to catch up with seq as it was.
 */
#include <linux/kernel.h>
#include <linux/bug.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <trace/events/workqueue.h>

struct worker_pool {
	struct list_head worklist;
	struct wait_queue_head more; /* the kworker waits here for work */
	struct task_struct *task;
	struct work_struct *current_work; /* what the kworker runs now */
	work_func_t current_func; /* its function */
	bool online; /* takes work: its CPU is up (kworker parked if not) */
};

static struct worker_pool wq_pools[NR_CPUS];
static DEFINE_SPINLOCK(wq_lock);
static DECLARE_WAIT_QUEUE_HEAD(wq_finished); /* an item finished */

static struct workqueue_struct wq_system = { .name = "events" };
struct workqueue_struct *system_wq = &wq_system;
EXPORT_SYMBOL(system_wq);

/* The pool of the kworker running, or NULL outside kworkers. */
static struct worker_pool *wq_current_pool(void)
{
	unsigned int cpu;

	for (cpu = 0; cpu < NR_CPUS; cpu++)
		if (wq_pools[cpu].task && wq_pools[cpu].task == current)
			return &wq_pools[cpu];
	return NULL;
}

/*
 * With wq_lock held: cpu's pool if it takes work, else this CPU's, else
 * the boot CPU's (which never goes offline).
 */
static struct worker_pool *wq_select_pool(int cpu)
{
	if (cpu < 0 || cpu >= NR_CPUS || !wq_pools[cpu].online)
		cpu = smp_processor_id();
	if (!wq_pools[cpu].online)
		cpu = 0;
	return &wq_pools[cpu];
}

/* With wq_lock held: puts a pending item on cpu's worklist. */
static void __queue_work_locked(int cpu, struct work_struct *work)
{
	struct worker_pool *pool = wq_select_pool(cpu);

	work->seq++;
	list_add_tail(&work->entry, &pool->worklist);
	wake_up(&pool->more);
}

bool queue_work_on(int cpu, struct workqueue_struct *wq,
		   struct work_struct *work)
{
	unsigned long flags;
	bool ret = false;

	spin_lock_irqsave(&wq_lock, flags);
	if (!work->pending) {
		work->pending = true;
		__queue_work_locked(cpu, work);
		ret = true;
	}
	spin_unlock_irqrestore(&wq_lock, flags);
	return ret;
}
EXPORT_SYMBOL(queue_work_on);

/* With wq_lock held: a pending item whose timer is not armed gets queued. */
static void __delayed_work_settle(struct delayed_work *dwork)
{
	struct work_struct *work = &dwork->work;

	if (work->pending && list_empty(&work->entry) &&
	    !timer_pending(&dwork->timer))
		__queue_work_locked(dwork->cpu, work);
}

/* The timer fired; mod_delayed_work() may have re-armed it meanwhile. */
void delayed_work_timer_fn(struct timer_list *t)
{
	struct delayed_work *dwork = from_timer(dwork, t, timer);
	unsigned long flags;

	spin_lock_irqsave(&wq_lock, flags);
	__delayed_work_settle(dwork);
	spin_unlock_irqrestore(&wq_lock, flags);
}
EXPORT_SYMBOL(delayed_work_timer_fn);

/* With wq_lock held: arms (or, for delay 0, queues) a pending dwork. */
static void __queue_delayed_locked(int cpu, struct delayed_work *dwork,
				   unsigned long delay)
{
	dwork->work.pending = true;
	dwork->cpu = cpu;
	if (!delay) {
		__queue_work_locked(cpu, &dwork->work);
		return;
	}
	dwork->timer.expires = jiffies + delay;
	if (cpu == WORK_CPU_UNBOUND || !cpu_online(cpu))
		add_timer(&dwork->timer);
	else
		add_timer_on(&dwork->timer, cpu);
}

bool queue_delayed_work_on(int cpu, struct workqueue_struct *wq,
			   struct delayed_work *dwork, unsigned long delay)
{
	unsigned long flags;
	bool ret = false;

	spin_lock_irqsave(&wq_lock, flags);
	if (!dwork->work.pending) {
		__queue_delayed_locked(cpu, dwork, delay);
		ret = true;
	}
	spin_unlock_irqrestore(&wq_lock, flags);
	return ret;
}
EXPORT_SYMBOL(queue_delayed_work_on);

/* With wq_lock held: takes a pending item back; true if it was pending. */
static bool __cancel_locked(struct work_struct *work, struct timer_list *timer)
{
	bool was = work->pending;

	if (timer)
		del_timer(timer);
	if (!list_empty(&work->entry)) {
		list_del_init(&work->entry);
		work->seq--; /* that queueing will never run */
	}
	work->pending = false;
	return was;
}

bool mod_delayed_work_on(int cpu, struct workqueue_struct *wq,
			 struct delayed_work *dwork, unsigned long delay)
{
	unsigned long flags;
	bool ret;

	spin_lock_irqsave(&wq_lock, flags);
	ret = __cancel_locked(&dwork->work, &dwork->timer);
	__queue_delayed_locked(cpu, dwork, delay);
	spin_unlock_irqrestore(&wq_lock, flags);
	return ret;
}
EXPORT_SYMBOL_GPL(mod_delayed_work_on);

/* True (after a WARN naming caller) if the item is the one calling. */
static bool wq_self_wait(struct work_struct *work, unsigned long caller)
{
	struct worker_pool *pool = wq_current_pool();

	if (!pool || READ_ONCE(pool->current_work) != work)
		return false;
	WARN_ONCE(1, "%pS on the work item running it (%ps) would deadlock\n",
		  (void *)caller, work->func);
	return true;
}

static bool __flush_work(struct work_struct *work, unsigned long caller)
{
	unsigned long flags, target;
	bool wait;

	if (wq_self_wait(work, caller))
		return false;
	spin_lock_irqsave(&wq_lock, flags);
	target = work->seq;
	wait = (long)(work->done - target) < 0;
	spin_unlock_irqrestore(&wq_lock, flags);
	if (wait)
		wait_event(wq_finished,
			   (long)(READ_ONCE(work->done) - target) >= 0);
	return wait;
}

bool flush_work(struct work_struct *work)
{
	might_sleep();
	return __flush_work(work, _RET_IP_);
}
EXPORT_SYMBOL_GPL(flush_work);

bool flush_delayed_work(struct delayed_work *dwork)
{
	unsigned long flags;

	might_sleep();
	spin_lock_irqsave(&wq_lock, flags);
	del_timer(&dwork->timer);
	__delayed_work_settle(dwork);
	spin_unlock_irqrestore(&wq_lock, flags);
	return __flush_work(&dwork->work, _RET_IP_);
}
EXPORT_SYMBOL(flush_delayed_work);

static bool __cancel_sync(struct work_struct *work, struct timer_list *timer,
			  unsigned long caller)
{
	unsigned long flags;
	bool ret;

	if (wq_self_wait(work, caller))
		return false;
	if (timer)
		del_timer_sync(timer); /* its callback would queue it */
	spin_lock_irqsave(&wq_lock, flags);
	ret = __cancel_locked(work, timer);
	spin_unlock_irqrestore(&wq_lock, flags);
	wait_event(wq_finished, !READ_ONCE(work->running));
	return ret;
}

bool cancel_work_sync(struct work_struct *work)
{
	might_sleep();
	return __cancel_sync(work, NULL, _RET_IP_);
}
EXPORT_SYMBOL_GPL(cancel_work_sync);

bool cancel_delayed_work_sync(struct delayed_work *dwork)
{
	might_sleep();
	return __cancel_sync(&dwork->work, &dwork->timer, _RET_IP_);
}
EXPORT_SYMBOL(cancel_delayed_work_sync);

bool cancel_delayed_work(struct delayed_work *dwork)
{
	unsigned long flags;
	bool ret;

	spin_lock_irqsave(&wq_lock, flags);
	ret = __cancel_locked(&dwork->work, &dwork->timer);
	spin_unlock_irqrestore(&wq_lock, flags);
	return ret;
}
EXPORT_SYMBOL(cancel_delayed_work);

/* Sleeps until pool has work; returns it, started, with its queueing. */
static struct work_struct *worker_take(struct worker_pool *pool,
				       unsigned long *seq)
{
	struct work_struct *work;
	unsigned long flags;

	for (;;) {
		wait_event(pool->more, !list_empty(&pool->worklist) ||
					       kthread_should_park());
		if (kthread_should_park()) { /* its CPU is going down */
			kthread_parkme();
			continue;
		}
		spin_lock_irqsave(&wq_lock, flags);
		if (!list_empty(&pool->worklist))
			break;
		spin_unlock_irqrestore(&wq_lock, flags);
	}
	work = list_first_entry(&pool->worklist, struct work_struct, entry);
	list_del_init(&work->entry);
	work->pending = false;
	work->running++;
	*seq = work->seq;
	pool->current_work = work;
	pool->current_func = work->func;
	spin_unlock_irqrestore(&wq_lock, flags);
	return work;
}

/* The first work of pool, queued or running, whose struct or func is mod's. */
static bool pool_points_into(struct worker_pool *pool, const struct module *mod,
			     char *buf, size_t len)
{
	struct work_struct *w = pool->current_work;

	if (w && (within_module((unsigned long)w, mod) ||
		  within_module((unsigned long)pool->current_func, mod))) {
		snprintf(buf, len, "a running work item (%ps, in %s)",
			 pool->current_func,
			 pool->task ? pool->task->comm : "?");
		return true;
	}
	list_for_each_entry(w, &pool->worklist, entry) {
		if (within_module((unsigned long)w, mod) ||
		    within_module((unsigned long)w->func, mod)) {
			snprintf(buf, len,
				 "a queued work item (%ps, work at %px)",
				 w->func, w);
			return true;
		}
	}
	return false;
}

bool work_points_into(const struct module *mod, char *buf, size_t len)
{
	unsigned long flags;
	unsigned int cpu;
	bool found = false;

	spin_lock_irqsave(&wq_lock, flags);
	for (cpu = 0; cpu < NR_CPUS && !found; cpu++)
		found = pool_points_into(&wq_pools[cpu], mod, buf, len);
	spin_unlock_irqrestore(&wq_lock, flags);
	return found;
}

static int worker_thread(void *data)
{
	struct worker_pool *pool = data;
	struct work_struct *work;
	unsigned long flags, seq;

	for (;;) {
		work_func_t func;

		work = worker_take(pool, &seq);
		func = work->func;
		trace_workqueue_execute_start(work);
		func(work);
		trace_workqueue_execute_end(work, func);
		spin_lock_irqsave(&wq_lock, flags);
		work->running--;
		if ((long)(seq - work->done) > 0)
			work->done = seq;
		pool->current_work = NULL;
		spin_unlock_irqrestore(&wq_lock, flags);
		wake_up(&wq_finished);
	}
	return 0;
}

/* Before any item can be queued: the worklists, empty. */
static int __init workqueue_init_early(void)
{
	unsigned int cpu;

	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		INIT_LIST_HEAD(&wq_pools[cpu].worklist);
		init_waitqueue_head(&wq_pools[cpu].more);
		wq_pools[cpu].online = cpu_online(cpu);
	}
	return 0;
}
early_initcall(workqueue_init_early);

static struct task_struct *wq_create_worker(unsigned int cpu)
{
	struct task_struct *t;

	t = kthread_create_on_cpu(worker_thread, &wq_pools[cpu], cpu,
				  "kworker/%u");
	if (!IS_ERR(t)) {
		wq_pools[cpu].task = t;
		wake_up_process(t);
	}
	return t;
}

/*
 * CPU hotplug, before the CPU goes down (see kernel/cpu.c for why outside
 * the hotplug lock): its pool stops taking work, what it held moves to
 * this CPU's pool, and kworker/cpu parks once its current item is done.
 */
void workqueue_offline_cpu(unsigned int cpu)
{
	struct worker_pool *pool = &wq_pools[cpu], *to;
	unsigned long flags;

	spin_lock_irqsave(&wq_lock, flags);
	pool->online = false;
	to = wq_select_pool(cpu);
	list_splice_tail_init(&pool->worklist, &to->worklist);
	wake_up(&to->more);
	spin_unlock_irqrestore(&wq_lock, flags);
	if (pool->task)
		kthread_park(pool->task);
}

/* Once the CPU is up: its pool takes work again, kworker/cpu runs there. */
void workqueue_online_cpu(unsigned int cpu)
{
	struct worker_pool *pool = &wq_pools[cpu];
	unsigned long flags;

	if (!pool->task) {
		if (IS_ERR(wq_create_worker(cpu))) {
			pr_err("workqueue: no kworker for CPU%u: its work runs elsewhere\n",
			       cpu);
			return;
		}
	} else {
		kthread_unpark(pool->task); /* bound: back on cpu */
	}
	spin_lock_irqsave(&wq_lock, flags);
	pool->online = true;
	spin_unlock_irqrestore(&wq_lock, flags);
}

/* A kworker per online CPU; items queued before run now. */
static int __init workqueue_init(void)
{
	struct task_struct *t;
	unsigned int cpu;

	for_each_online_cpu(cpu) {
		t = wq_create_worker(cpu);
		if (IS_ERR(t))
			panic("workqueue: no kworker for CPU%u: %ld", cpu,
			      PTR_ERR(t));
	}
	return 0;
}
device_initcall(workqueue_init);
