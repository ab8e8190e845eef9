/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_PREEMPT_H
#define _LINUX_PREEMPT_H

#include <linux/compiler.h>
#include <linux/irqflags.h>
#include <linux/percpu.h>

/*
 * Preemption. Each CPU keeps a count, __preempt_count, of the reasons the
 * running task must not be switched away from involuntarily:
 *
 *   bits  0..15  preempt_disable() nesting (spinlocks and mutexes count)
 *   bits 16..23  hard interrupt nesting (do_exception() around a handler)
 *
 * The count belongs to the task: the context switch saves it in the task
 * it leaves and loads the next task's. sched_need_resched, per CPU, says
 * that a task better than the current one waits (a wake-up or the end of
 * a slice). The task is preempted when the count drops to 0 with
 * interrupts on (preempt_enable()), or when an interrupt returns to code
 * that ran with count 0 and interrupts on.
 */
#define PREEMPT_OFFSET 1
#define PREEMPT_MASK 0x0000ffff
#define HARDIRQ_OFFSET 0x00010000
#define HARDIRQ_MASK 0x00ff0000

DECLARE_PER_CPU(int, __preempt_count);
DECLARE_PER_CPU(int, sched_need_resched);

static __always_inline int preempt_count(void)
{
	return this_cpu_read(__preempt_count);
}

static __always_inline void preempt_count_add(int n)
{
	this_cpu_add(__preempt_count, n);
}

static __always_inline void preempt_count_sub(int n)
{
	this_cpu_add(__preempt_count, -n);
}

static __always_inline bool need_resched(void)
{
	return unlikely(this_cpu_read(sched_need_resched));
}

/* In an interrupt handler, or with preemption disabled. */
#define in_irq() (preempt_count() & HARDIRQ_MASK)
#define in_interrupt() in_irq()
#define in_atomic() (preempt_count() != 0)
#define preemptible() (preempt_count() == 0 && !irqs_disabled())

void preempt_schedule(void);

#define preempt_disable()                     \
	do {                                  \
		preempt_count_add(1);         \
		barrier();                    \
	} while (0)

/* No reschedule even if needed: the caller schedules soon anyway. */
#define preempt_enable_no_resched()           \
	do {                                  \
		barrier();                    \
		preempt_count_sub(1);         \
	} while (0)

#define preempt_enable()                                            \
	do {                                                        \
		barrier();                                          \
		preempt_count_sub(1);                               \
		if (unlikely(this_cpu_read(sched_need_resched)) &&  \
		    preempt_count() == 0)                           \
			preempt_schedule();                         \
	} while (0)

#endif /* _LINUX_PREEMPT_H */
