/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_WORKQUEUE_H
#define _LINUX_WORKQUEUE_H

#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/threads.h>
#include <linux/timer.h>
#include <linux/types.h>

/*
 * Workqueues (kernel/workqueue.c), Linux's API: a function run later in
 * process context, by a kworker kthread bound to one CPU ("kworker/N",
 * one per online CPU, serving system_wq). A work item may sleep.
 *
 *   - queueing a pending item (on a worklist, or its delayed_work timer
 *     armed) does nothing and returns false; otherwise the item runs
 *     once per queueing, on the CPU asked for (queue_work() and the
 *     timer of a delayed work: the CPU queueing, or firing);
 *   - an item that is running may be queued again: it runs again, maybe
 *     on another CPU at the same time;
 *   - flush_work() waits until the item's last queueing has run, and
 *     cancel_work_sync() until it runs nowhere; called by the item on
 *     itself, both WARN once with the caller and return (they would wait
 *     for themselves);
 *   - unlike Linux, an item must not free itself: the kworker touches it
 *     once more after its function returns.
 *
 * Everything may be called from interrupts (timer callbacks included)
 * but flush_*() and cancel_*_sync(), which sleep.
 */
struct work_struct;
typedef void (*work_func_t)(struct work_struct *work);

struct work_struct {
	struct list_head entry; /* on a worklist, else empty */
	work_func_t func;
	/* private, under the workqueue lock: */
	bool pending; /* queued or its timer armed, not yet started */
	int running; /* kworkers running it now */
	unsigned long seq; /* queueings that reached a worklist */
	unsigned long done; /* the last of them that finished */
};

struct delayed_work {
	struct work_struct work;
	struct timer_list timer;
	int cpu; /* where it will be queued, or WORK_CPU_UNBOUND */
};

struct workqueue_struct {
	const char *name;
};

extern struct workqueue_struct *system_wq;

#define WORK_CPU_UNBOUND NR_CPUS

#define __WORK_INITIALIZER(n, f)                                 \
	{                                                        \
		.entry = LIST_HEAD_INIT((n).entry), .func = (f), \
	}

void delayed_work_timer_fn(struct timer_list *t);

#define __DELAYED_WORK_INITIALIZER(n, f, tflags)                       \
	{                                                              \
		.work = __WORK_INITIALIZER((n).work, (f)),           \
		.timer = {                                           \
			.entry = { .next = NULL, .pprev = NULL },    \
			.function = delayed_work_timer_fn,           \
			.flags = (tflags),                           \
			.cpu = 0,                                    \
		},                                                   \
		.cpu = WORK_CPU_UNBOUND, \
	}

#define DECLARE_WORK(n, f) struct work_struct n = __WORK_INITIALIZER(n, f)
#define DECLARE_DELAYED_WORK(n, f) \
	struct delayed_work n = __DELAYED_WORK_INITIALIZER(n, f, 0)

#define INIT_WORK(_work, _func)                                     \
	do {                                                        \
		*(_work) = (struct work_struct){ .func = (_func) }; \
		INIT_LIST_HEAD(&(_work)->entry);                    \
	} while (0)

#define INIT_DELAYED_WORK(_dwork, _func)                                 \
	do {                                                             \
		INIT_WORK(&(_dwork)->work, (_func));                     \
		timer_setup(&(_dwork)->timer, delayed_work_timer_fn, 0); \
		(_dwork)->cpu = WORK_CPU_UNBOUND;                        \
	} while (0)

static inline struct delayed_work *to_delayed_work(struct work_struct *work)
{
	return container_of(work, struct delayed_work, work);
}

/* A hint unless the caller knows better: queued, or its timer armed. */
#define work_pending(work) READ_ONCE((work)->pending)
#define delayed_work_pending(w) work_pending(&(w)->work)

/* True if queued, false if it was already pending. */
bool queue_work_on(int cpu, struct workqueue_struct *wq,
		   struct work_struct *work);
bool queue_delayed_work_on(int cpu, struct workqueue_struct *wq,
			   struct delayed_work *dwork, unsigned long delay);
/* Re-arms for delay from now, pending or not; true if it was pending. */
bool mod_delayed_work_on(int cpu, struct workqueue_struct *wq,
			 struct delayed_work *dwork, unsigned long delay);

/* True if it waited: the last queueing had not finished. Sleeps. */
bool flush_work(struct work_struct *work);
/* Queues a pending delayed work now, then flush_work(). Sleeps. */
bool flush_delayed_work(struct delayed_work *dwork);
/* Dequeues; then, for _sync (sleeps), waits till it runs nowhere. */
bool cancel_work_sync(struct work_struct *work);
bool cancel_delayed_work(struct delayed_work *dwork);
bool cancel_delayed_work_sync(struct delayed_work *dwork);

static inline bool queue_work(struct workqueue_struct *wq,
			      struct work_struct *work)
{
	return queue_work_on(WORK_CPU_UNBOUND, wq, work);
}

static inline bool queue_delayed_work(struct workqueue_struct *wq,
				      struct delayed_work *dwork,
				      unsigned long delay)
{
	return queue_delayed_work_on(WORK_CPU_UNBOUND, wq, dwork, delay);
}

static inline bool mod_delayed_work(struct workqueue_struct *wq,
				    struct delayed_work *dwork,
				    unsigned long delay)
{
	return mod_delayed_work_on(WORK_CPU_UNBOUND, wq, dwork, delay);
}

static inline bool schedule_work(struct work_struct *work)
{
	return queue_work(system_wq, work);
}

static inline bool schedule_delayed_work(struct delayed_work *dwork,
					 unsigned long delay)
{
	return queue_delayed_work(system_wq, dwork, delay);
}

static inline bool schedule_delayed_work_on(int cpu, struct delayed_work *dwork,
					    unsigned long delay)
{
	return queue_delayed_work_on(cpu, system_wq, dwork, delay);
}

/* CPU hotplug (kernel/cpu.c): cpu's pool and kworker/cpu go and come. */
void workqueue_offline_cpu(unsigned int cpu);
void workqueue_online_cpu(unsigned int cpu);

#endif /* _LINUX_WORKQUEUE_H */
