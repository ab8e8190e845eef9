// SPDX-License-Identifier: GPL-2.0
/*
 * Task life: creation (a task_struct and a stack with a guard below it,
 * from the arch), references, and the end: a dead task's stack is freed
 * by whoever sees it switched out first, kthread_stop() or the idle task
 * (task_reap_dead()), never by the task itself, which runs on it.
 */
#include <linux/kernel.h>
#include <linux/export.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>

static atomic_t next_pid = ATOMIC_INIT(0);
static atomic_t nr_stacks = ATOMIC_INIT(0);

/*
 * A new task that will run fn(arg) on cpu once woken: it starts in
 * TASK_UNINTERRUPTIBLE, off the run queue, with two references (one its
 * creator's, one dropped when its stack is reaped). NULL: no memory.
 */
struct task_struct *task_create(int (*fn)(void *), void *arg, unsigned int cpu)
{
	struct task_struct *t = kzalloc(sizeof(*t), GFP_KERNEL);

	if (!t)
		return NULL;
	t->stack = arch_alloc_task_stack();
	if (!t->stack) {
		kfree(t);
		return NULL;
	}
	atomic_inc(&nr_stacks);
	t->state = TASK_UNINTERRUPTIBLE;
	t->cpu = cpu;
	t->cpus_allowed = ~0ULL;
	t->pid = atomic_add_return(1, &next_pid);
	t->preempt_count = 1; /* the run-queue lock, dropped by schedule_tail */
	INIT_LIST_HEAD(&t->run_list);
	atomic_set(&t->usage, 2);
	arch_task_init_frame(t, fn, arg);
	return t;
}

void get_task_struct(struct task_struct *t)
{
	atomic_inc(&t->usage);
}
EXPORT_SYMBOL_GPL(get_task_struct);

void put_task_struct(struct task_struct *t)
{
	if (atomic_dec_and_test(&t->usage)) {
		WARN_ON_ONCE(t->stack);
		kfree(t->kthread);
		kfree(t);
	}
}
EXPORT_SYMBOL_GPL(put_task_struct);

/*
 * Frees a dead task's stack once it is switched out; whoever calls first
 * frees it, a second caller waits until it is freed. The freeing runs with
 * preemption disabled, so a waiter on the same CPU cannot be spinning on a
 * preempted freer.
 */
void task_release_stack(struct task_struct *t)
{
	unsigned long stack;

	/*
	 * Dead and switched out: a task preempted on its way out (between
	 * waking its stopper and do_exit()) is neither, and may need this
	 * CPU to get there.
	 */
	while (READ_ONCE(t->state) != TASK_DEAD ||
	       __atomic_load_n(&t->on_cpu, __ATOMIC_ACQUIRE)) {
		if (READ_ONCE(t->state) != TASK_DEAD &&
		    !(current->flags & PF_IDLE))
			yield();
		else
			cpu_relax();
	}
	preempt_disable();
	stack = __atomic_exchange_n(&t->stack, 0, __ATOMIC_ACQ_REL);
	if (stack) {
		arch_free_task_stack(stack);
		atomic_dec(&nr_stacks);
		__atomic_store_n(&t->stack_freed, 1, __ATOMIC_RELEASE);
	}
	preempt_enable();
	while (!__atomic_load_n(&t->stack_freed, __ATOMIC_ACQUIRE))
		cpu_relax();
}

/* Frees the stacks of tasks that died; interrupts on, preemptible. */
void task_reap_dead(void)
{
	struct list_head dead;

	sched_take_dead(&dead);
	while (!list_empty(&dead)) {
		struct task_struct *t =
			list_first_entry(&dead, struct task_struct, run_list);

		list_del_init(&t->run_list);
		task_release_stack(t);
		put_task_struct(t);
		sched_dead_reaped();
	}
}
EXPORT_SYMBOL_GPL(task_reap_dead);

/* Task stacks allocated and not yet freed. */
unsigned long nr_task_stacks(void)
{
	return atomic_read(&nr_stacks);
}
EXPORT_SYMBOL_GPL(nr_task_stacks);
