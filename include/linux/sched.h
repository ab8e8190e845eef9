/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_SCHED_H
#define _LINUX_SCHED_H

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/jump_label.h>
#include <linux/list.h>
#include <linux/lockorder_types.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/types.h>

/*
 * Tasks and the scheduler (Documentation/sched.rst).
 *
 * A task runs kernel code on its own stack, on one CPU at a time
 * (task->cpu, chosen at creation or by kthread_bind()). A kernel thread
 * changes CPU only when its CPU goes offline (sched_cpu_deactivate()); a
 * user task (task->proc set) also moves to spread the load: a wake-up
 * puts it on an idle CPU when its own is busy, an idle CPU pulls it from
 * a busy one's queue, and sched_setaffinity() moves it into its
 * cpus_allowed. It moves only while not running.
 * Each CPU has a run queue, a FIFO of runnable tasks under a spinlock, and
 * an idle task (pid 0, "swapper/N") that runs when the queue is empty.
 *
 * state is TASK_RUNNING or a sleeping state. A task sleeps by setting a
 * sleeping state, checking its condition, then calling schedule(), which
 * takes it off the run queue unless a wake_up_process() set it back to
 * TASK_RUNNING in between (both look at state under the run-queue lock, so
 * no wake-up is lost). A task preempted while in a sleeping state stays on
 * the queue: only schedule() called by the task itself puts it to sleep.
 */
#define TASK_RUNNING 0x0000
#define TASK_INTERRUPTIBLE 0x0001
#define TASK_UNINTERRUPTIBLE 0x0002
#define TASK_DEAD 0x0080

/* task->flags */
#define PF_IDLE 0x00000002 /* the CPU's idle task */
#define PF_KTHREAD 0x00200000
#define PF_NO_SETAFFINITY 0x04000000 /* kthread_bind()ed */
#define PF_OOPS_EXITS                                          \
	0x08000000 /* an oops ends the kthread, not the kernel \
		    */

#define TASK_COMM_LEN 16

struct completion;
struct kthread;
struct process;
struct uthread;

/*
 * Per-task scheduler statistics, kept only while schedstats are on
 * (schedstat_enabled(): schedstats=enable on the command line, or
 * sched_set_schedstats()), under the task's run-queue lock. Times are
 * ktime_get_ns() nanoseconds; a *_start of 0 means "not in that state".
 */
struct sched_statistics {
	u64 wait_start; /* runnable and queued since */
	u64 wait_max;
	u64 wait_count; /* times it got the CPU after waiting */
	u64 wait_sum;
	u64 sleep_start; /* asleep since */
	u64 sleep_max;
	u64 sum_sleep_runtime;
	u64 nr_wakeups;
	u64 nr_wakeups_local; /* woken by a task of its own CPU */
	u64 nr_wakeups_remote;
};

struct task_struct {
	unsigned long sp; /* saved stack pointer; first: entry code uses it */
	long state; /* TASK_*; written by the task and by wake-ups */
	unsigned int flags;
	unsigned int cpu;
	int pid;
	int on_rq; /* runnable: queued or running (rq lock) */
	int on_cpu; /* its registers are live on its CPU (till switched out) */
	int preempt_count; /* saved here while it is switched out */
	unsigned int slice_ticks; /* ticks run since it last got the CPU */
	unsigned long stack; /* lowest address of its stack; 0: none/freed */
	int stack_freed; /* set once the stack is back in the allocator */
	struct list_head run_list; /* on the run queue, or the dead list */
	atomic_t usage; /* references; the last put frees the struct */
	struct kthread *kthread;
	struct completion *exit_done; /* completed by do_exit(), if set */
	unsigned int cpus_read_depth; /* cpus_read_lock() nesting (kernel/cpu.c)
				       */
	char comm[TASK_COMM_LEN];
	struct lockorder_task lockorder; /* the sleeping locks it holds */
	/* Its preempt notifiers: changed and walked by the task alone. */
	struct hlist_head preempt_notifiers;
	struct sched_statistics stats;
	u64 cpus_allowed; /* bit n: CPU n (sched_setaffinity) */
	unsigned long nvcsw, nivcsw; /* switches out asleep, runnable */
	struct process *proc; /* a user process's task: its process */
	struct uthread *uthread; /* and its thread */
};

DECLARE_PER_CPU(struct task_struct *, current_task);

static __always_inline struct task_struct *get_current(void)
{
	return this_cpu_read(current_task);
}
#define current get_current()

#define set_current_state(s)                             \
	do {                                             \
		WRITE_ONCE(current->state, (s));         \
		__atomic_thread_fence(__ATOMIC_SEQ_CST); \
	} while (0)
#define __set_current_state(s) WRITE_ONCE(current->state, (s))

/* Per-CPU counters, for tests and benches. */
struct sched_stats {
	unsigned long switches; /* context switches (prev != next) */
	unsigned long wakeups; /* tasks put back on this CPU's queue */
	unsigned long preemptions; /* involuntary switches */
	unsigned long yields;
	unsigned long migrations; /* tasks pushed here from a CPU going down */
	unsigned long wake_moves; /* woken here, idle, from a busy CPU */
	unsigned long pulls; /* queued tasks this idle CPU took */
};

/*
 * The run queue's schedstats (Linux's rq fields), counted only while
 * schedstat_enabled(), under the run-queue lock.
 */
struct sched_schedstats {
	unsigned long sched_count; /* __schedule() calls */
	unsigned long sched_goidle; /* of which picked the idle task */
	unsigned long yld_count; /* yield() calls */
	unsigned long ttwu_count; /* wake-ups of tasks of this CPU */
	unsigned long ttwu_local; /* of which by this CPU itself */
};

/*
 * Schedstats cost one disabled static branch at each place they count
 * until turned on; the key is sched_schedstats.
 */
DECLARE_STATIC_KEY_FALSE(sched_schedstats);

static __always_inline bool schedstat_enabled(void)
{
	return static_branch_unlikely(&sched_schedstats);
}

#define schedstat_inc(var)               \
	do {                             \
		if (schedstat_enabled()) \
			(var)++;         \
	} while (0)

/* Turns schedstats on or off (the counts stay). May sleep. */
void sched_set_schedstats(bool enabled);
struct sched_schedstats sched_cpu_schedstats(unsigned int cpu);

/*
 * Preempt notifiers (Linux's): hooks called when the task that
 * registered them is switched out (sched_out, with the next task) and
 * back in (sched_in, with its CPU), from the switch with the run-queue
 * lock held and interrupts off. A task registers and unregisters its own,
 * between preempt_notifier_inc() and preempt_notifier_dec(), which turn
 * the switch's static branch (preempt_notifier_key) on and off.
 * Registering while the key is off WARNs and registers anyway.
 */
struct preempt_notifier;

struct preempt_ops {
	void (*sched_in)(struct preempt_notifier *notifier, int cpu);
	void (*sched_out)(struct preempt_notifier *notifier,
			  struct task_struct *next);
};

struct preempt_notifier {
	struct hlist_node link;
	struct preempt_ops *ops;
};

void preempt_notifier_inc(void);
void preempt_notifier_dec(void);
void preempt_notifier_register(struct preempt_notifier *notifier);
void preempt_notifier_unregister(struct preempt_notifier *notifier);

static inline void preempt_notifier_init(struct preempt_notifier *notifier,
					 struct preempt_ops *ops)
{
	INIT_HLIST_NODE(&notifier->link);
	notifier->ops = ops;
}

/*
 * schedule(): gives the CPU to the next runnable task; returns when this
 * task runs again. Must be called with preemption enabled (count 0) and
 * interrupts as the caller likes; it may not be called from an interrupt.
 */
void schedule(void);
void yield(void);
/* Schedules if a reschedule is pending and it may: true if it did. */
bool cond_resched(void);
/* Makes p runnable on its CPU: true if it was sleeping. Any context. */
bool wake_up_process(struct task_struct *p);
/*
 * If p runs on another CPU, interrupts it there, so that it looks at its
 * signals on the way back to user mode. Preemption off.
 */
void kick_process(struct task_struct *p);
void preempt_schedule_irq(void);

void sched_init(void);
void sched_init_ap(unsigned int cpu);
void __noreturn cpu_idle(void);
void scheduler_tick(void);
void sched_fold_need_resched(void);

/*
 * CPU hotplug (kernel/cpu.c calls these, process context): deactivate
 * takes cpu out of the active mask and moves every runnable task off it
 * (a task sleeping there wakes up on an active CPU); it fails with -EBUSY
 * if cpu still runs a task after a few seconds, and leaves it active.
 * activate puts it back. sched_move_sleeping_task() sets where a task that
 * is not runnable will run when woken: false if it is runnable.
 */
int sched_cpu_deactivate(unsigned int cpu);
int sched_cpu_activate(unsigned int cpu);
bool sched_move_sleeping_task(struct task_struct *p, unsigned int cpu);
/*
 * Sets the CPUs p may run on (bit n: CPU n) and moves it into them: at
 * once if it sleeps or waits in a queue; if it runs, when it next wakes
 * up or an idle CPU of the mask pulls it. -EINVAL if mask has no active
 * CPU. sched_move_current() moves the current task into its mask now
 * (it sleeps until a kworker wakes it there). Process context.
 */
int sched_setaffinity(struct task_struct *p, u64 mask);
void sched_move_current(void);
struct sched_stats sched_cpu_stats(unsigned int cpu);
unsigned int sched_nr_running(unsigned int cpu);

/*
 * might_sleep(): marks a function that may sleep. Called where sleeping is
 * not allowed (preemption or interrupts disabled, a spinlock held, an
 * interrupt handler, the idle task), it WARNs once per caller: "sleeping
 * function called from invalid context", with the file and line of the
 * check and the caller (%pS). The caller is the return address of the
 * function that contains the check, so put it in the sleeping function
 * itself, not in a helper of it.
 */
void __might_sleep(const char *file, int line, unsigned long caller);
#define might_sleep() __might_sleep(__FILE__, __LINE__, _RET_IP_)
/* True if the current context may sleep (what might_sleep() checks). */
bool sched_may_sleep(void);

/* Task life (kernel/sched/task.c). */
#define THREAD_SIZE (16 * 1024)
struct task_struct *task_create(int (*fn)(void *), void *arg, unsigned int cpu);
void __noreturn do_exit(void);
void get_task_struct(struct task_struct *t);
void put_task_struct(struct task_struct *t);
void task_release_stack(struct task_struct *t);
void task_reap_dead(void);
/* Moves the list of dead, switched-out tasks to out (for the reaper). */
void sched_take_dead(struct list_head *out);
/* For task_reap_dead(): one task taken by sched_take_dead() is freed. */
void sched_dead_reaped(void);
unsigned int nr_tasks_exiting(void);
unsigned long nr_task_stacks(void);

/* What the arch supplies (arch/x86/kernel/process.c, switch_64.S). */
unsigned long arch_alloc_task_stack(void);
void arch_free_task_stack(unsigned long stack);
void arch_task_init_frame(struct task_struct *t, int (*entry)(void *),
			  void *arg);
struct task_struct *__switch_to_asm(struct task_struct *prev,
				    struct task_struct *next);
void schedule_tail(struct task_struct *prev);
/* True if addr is on the guard page(s) below a task stack. */
bool kernel_stack_guard_hit(unsigned long addr);
/* Interrupts cpu so that it looks at its sched_need_resched. */
void arch_smp_send_reschedule(unsigned int cpu);

#endif /* _LINUX_SCHED_H */
