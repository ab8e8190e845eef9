// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel threads (<linux/kthread.h>). Each has a struct kthread beside its
 * task: the function, its result, request bits and a waiter. A waiter
 * (kthread_stop(), kthread_park()) sleeps until the thread sets the bit
 * it waits for; both sides take k->lock, so the wake-up is never lost.
 */
#include <linux/kernel.h>
#include <linux/export.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/spinlock.h>

enum {
	KTHREAD_SHOULD_STOP,
	KTHREAD_SHOULD_PARK,
	KTHREAD_IS_PARKED,
	KTHREAD_EXITED,
};

struct kthread {
	int (*threadfn)(void *data);
	void *data;
	struct task_struct *task;
	struct list_head node; /* on kthreads until it exits */
	unsigned long flags; /* 1 << KTHREAD_* */
	int result;
	spinlock_t lock; /* waiter, and the setting of the bits it waits for */
	struct task_struct *waiter;
	int bound_cpu; /* kthread_bind()'s CPU, or -1 */
};

/* Every kthread that has not exited, for kthreads_point_into(). */
static LIST_HEAD(kthreads);
static DEFINE_SPINLOCK(kthreads_lock);

static bool kthread_test(struct kthread *k, int bit)
{
	return __atomic_load_n(&k->flags, __ATOMIC_ACQUIRE) & (1UL << bit);
}

static void kthread_set(struct kthread *k, int bit)
{
	__atomic_fetch_or(&k->flags, 1UL << bit, __ATOMIC_SEQ_CST);
}

static void kthread_clear(struct kthread *k, int bit)
{
	__atomic_fetch_and(&k->flags, ~(1UL << bit), __ATOMIC_SEQ_CST);
}

/* Sets bit and wakes the waiter, if any. */
static void kthread_signal(struct kthread *k, int bit)
{
	unsigned long flags;

	spin_lock_irqsave(&k->lock, flags);
	kthread_set(k, bit);
	if (k->waiter)
		wake_up_process(k->waiter);
	spin_unlock_irqrestore(&k->lock, flags);
}

/* Sleeps until bit is set. One waiter at a time. */
static void kthread_wait(struct kthread *k, int bit)
{
	unsigned long flags;

	for (;;) {
		spin_lock_irqsave(&k->lock, flags);
		if (kthread_test(k, bit)) {
			k->waiter = NULL;
			spin_unlock_irqrestore(&k->lock, flags);
			break;
		}
		k->waiter = current;
		set_current_state(TASK_UNINTERRUPTIBLE);
		spin_unlock_irqrestore(&k->lock, flags);
		schedule();
	}
	__set_current_state(TASK_RUNNING);
}

void __noreturn kthread_exit(int result)
{
	struct kthread *k = current->kthread;
	unsigned long flags;

	spin_lock_irqsave(&kthreads_lock, flags);
	list_del_init(&k->node);
	spin_unlock_irqrestore(&kthreads_lock, flags);
	k->result = result;
	kthread_signal(k, KTHREAD_EXITED);
	do_exit();
}

bool kthreads_point_into(const struct module *mod, char *buf, size_t len)
{
	unsigned long flags;
	struct kthread *k;
	bool found = false;

	spin_lock_irqsave(&kthreads_lock, flags);
	list_for_each_entry(k, &kthreads, node) {
		if (within_module((unsigned long)k->threadfn, mod) ||
		    within_module((unsigned long)k->data, mod)) {
			snprintf(buf, len, "a kthread (%s, running %ps)",
				 k->task ? k->task->comm : "starting",
				 k->threadfn);
			found = true;
			break;
		}
	}
	spin_unlock_irqrestore(&kthreads_lock, flags);
	return found;
}

/* Every kthread's first C function: threadfn unless stopped before. */
static int kthread_entry(void *arg)
{
	struct kthread *k = arg;
	int ret = -EINTR;

	if (!kthread_test(k, KTHREAD_SHOULD_STOP))
		ret = k->threadfn(k->data);
	kthread_exit(ret);
}

static unsigned int kthread_pick_cpu(void)
{
	static unsigned int next;
	unsigned int n = __atomic_fetch_add(&next, 1, __ATOMIC_RELAXED);
	unsigned int cpu, i = 0;

	n %= num_active_cpus();
	for_each_active_cpu(cpu)
		if (i++ == n)
			return cpu;
	return 0; /* the mask changed meanwhile; the boot CPU stays */
}

struct task_struct *kthread_create(int (*threadfn)(void *data), void *data,
				   const char *namefmt, ...)
{
	struct kthread *k = kzalloc(sizeof(*k), GFP_KERNEL);
	struct task_struct *t;
	unsigned long flags;
	va_list args;

	task_reap_dead();
	if (!k)
		return ERR_PTR(-ENOMEM);
	k->threadfn = threadfn;
	k->data = data;
	k->bound_cpu = -1;
	spin_lock_init(&k->lock);
	/* Listed before it can run (and leave the list in kthread_exit()). */
	spin_lock_irqsave(&kthreads_lock, flags);
	list_add_tail(&k->node, &kthreads);
	spin_unlock_irqrestore(&kthreads_lock, flags);
	t = task_create(kthread_entry, k, kthread_pick_cpu());
	if (!t) {
		spin_lock_irqsave(&kthreads_lock, flags);
		list_del_init(&k->node);
		spin_unlock_irqrestore(&kthreads_lock, flags);
		kfree(k);
		return ERR_PTR(-ENOMEM);
	}
	t->kthread = k;
	t->flags |= PF_KTHREAD;
	va_start(args, namefmt);
	vsnprintf(t->comm, sizeof(t->comm), namefmt, args);
	va_end(args);
	spin_lock_irqsave(&kthreads_lock, flags);
	k->task = t;
	spin_unlock_irqrestore(&kthreads_lock, flags);
	return t;
}
EXPORT_SYMBOL(kthread_create);

void kthread_bind(struct task_struct *t, unsigned int cpu)
{
	if (WARN_ON_ONCE(t->on_rq || !cpu_online(cpu)))
		return;
	t->cpu = cpu;
	t->flags |= PF_NO_SETAFFINITY;
	t->kthread->bound_cpu = cpu;
}
EXPORT_SYMBOL(kthread_bind);

struct task_struct *kthread_create_on_cpu(int (*threadfn)(void *data),
					  void *data, unsigned int cpu,
					  const char *namefmt)
{
	struct task_struct *t;

	if (cpu >= NR_CPUS || !cpu_active(cpu))
		return ERR_PTR(-EINVAL);
	t = kthread_create(threadfn, data, namefmt, cpu);
	if (!IS_ERR(t))
		kthread_bind(t, cpu);
	return t;
}
EXPORT_SYMBOL(kthread_create_on_cpu);

struct task_struct *kthread_run_on_cpu(int (*threadfn)(void *data),
				       void *data, unsigned int cpu,
				       const char *namefmt)
{
	struct task_struct *t;

	t = kthread_create_on_cpu(threadfn, data, cpu, namefmt);
	if (!IS_ERR(t))
		wake_up_process(t);
	return t;
}
EXPORT_SYMBOL(kthread_run_on_cpu);

bool kthread_should_stop(void)
{
	return kthread_test(current->kthread, KTHREAD_SHOULD_STOP);
}
EXPORT_SYMBOL(kthread_should_stop);

void kthread_wait_stop(void)
{
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
}
EXPORT_SYMBOL_GPL(kthread_wait_stop);

bool kthread_should_park(void)
{
	return kthread_test(current->kthread, KTHREAD_SHOULD_PARK);
}
EXPORT_SYMBOL_GPL(kthread_should_park);

int kthread_stop(struct task_struct *t)
{
	struct kthread *k = t->kthread;
	int ret;

	might_sleep();
	WARN_ONCE(
		kthread_test(k, KTHREAD_EXITED),
		"kthread_stop(%s/%d) from %pS: the thread has exited already\n",
		t->comm, t->pid, __builtin_return_address(0));
	kthread_set(k, KTHREAD_SHOULD_STOP);
	kthread_unpark(t);
	wake_up_process(t);
	kthread_wait(k, KTHREAD_EXITED);
	ret = k->result;
	task_release_stack(t); /* waits for it to be switched out */
	put_task_struct(t);
	return ret;
}
EXPORT_SYMBOL(kthread_stop);

/* The thread parks in here while kthread_should_park(). */
void kthread_parkme(void)
{
	struct kthread *k = current->kthread;

	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (!kthread_test(k, KTHREAD_SHOULD_PARK))
			break;
		if (!kthread_test(k, KTHREAD_IS_PARKED))
			kthread_signal(k, KTHREAD_IS_PARKED);
		schedule();
	}
	__set_current_state(TASK_RUNNING);
}
EXPORT_SYMBOL_GPL(kthread_parkme);

/* 0 once the thread is parked; -ENOSYS if it has exited. */
int kthread_park(struct task_struct *t)
{
	struct kthread *k = t->kthread;

	might_sleep();
	if (WARN_ON_ONCE(kthread_test(k, KTHREAD_EXITED)))
		return -ENOSYS;
	kthread_set(k, KTHREAD_SHOULD_PARK);
	if (t != current) {
		wake_up_process(t);
		kthread_wait(k, KTHREAD_IS_PARKED);
	}
	return 0;
}
EXPORT_SYMBOL_GPL(kthread_park);

void kthread_unpark(struct task_struct *t)
{
	struct kthread *k = t->kthread;

	if (!kthread_test(k, KTHREAD_SHOULD_PARK))
		return;
	/*
	 * A bound thread parks when its CPU goes offline; a stray wake-up
	 * meanwhile may have moved it: it goes back before it runs.
	 */
	if (k->bound_cpu >= 0 && cpu_active(k->bound_cpu))
		sched_move_sleeping_task(t, k->bound_cpu);
	kthread_clear(k, KTHREAD_IS_PARKED);
	kthread_clear(k, KTHREAD_SHOULD_PARK);
	wake_up_process(t);
}
EXPORT_SYMBOL_GPL(kthread_unpark);
