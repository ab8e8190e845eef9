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
 *   bits 16..23  hard interrupt nesting (do_irq() around a handler)
 *   bit  31      PREEMPT_NEED_RESCHED, set when no reschedule is pending
 *
 * The count belongs to the task: the context switch saves bits 0..30 in
 * the task it leaves and loads the next task's. sched_need_resched, per
 * CPU, says that another task should run here (a wake-up on an idle CPU,
 * the end of a slice); anyone may set it, and this CPU folds it into bit
 * 31, inverted, as x86 Linux does: then the whole word is 0 exactly when
 * the count is 0 and a reschedule is due, so preempt_enable() is one
 * decrement and one branch. The task is preempted when the count drops to
 * 0 with interrupts on (preempt_enable()), or when an interrupt returns to
 * code that ran with count 0 and interrupts on.
 */
#define PREEMPT_OFFSET 1
#define PREEMPT_MASK 0x0000ffff
#define HARDIRQ_OFFSET 0x00010000
#define HARDIRQ_MASK 0x00ff0000
#define PREEMPT_NEED_RESCHED 0x80000000
#define PREEMPT_ENABLED PREEMPT_NEED_RESCHED /* count 0, nothing due */

DECLARE_PER_CPU(int, __preempt_count);
DECLARE_PER_CPU(int, sched_need_resched);

static __always_inline int preempt_count(void)
{
	return this_cpu_read(__preempt_count) & ~PREEMPT_NEED_RESCHED;
}

static __always_inline void preempt_count_add(int n)
{
	this_cpu_add(__preempt_count, n);
}

static __always_inline void preempt_count_sub(int n)
{
	this_cpu_add(__preempt_count, -n);
}

/* Folds a pending reschedule into bit 31 (clears it), on this CPU. */
static __always_inline void preempt_fold_need_resched(void)
{
	asm volatile("andl %1, %%gs:%0"
		     : "+m"(__preempt_count)
		     : "i"(~PREEMPT_NEED_RESCHED)
		     : "cc");
}

static __always_inline void preempt_clear_need_resched(void)
{
	asm volatile("orl %1, %%gs:%0"
		     : "+m"(__preempt_count)
		     : "i"(PREEMPT_NEED_RESCHED)
		     : "cc");
}

static __always_inline bool need_resched(void)
{
	return unlikely(this_cpu_read(sched_need_resched));
}

/* The whole word minus one: true if it became 0 (count 0, resched due). */
static __always_inline bool __preempt_count_dec_and_test(void)
{
	bool zero;

	asm volatile("decl %%gs:%0" : "+m"(__preempt_count), "=@cce"(zero));
	return zero;
}

/* In an interrupt handler, or with preemption disabled. */
#define in_irq() (preempt_count() & HARDIRQ_MASK)
#define in_interrupt() in_irq()
#define in_atomic() (preempt_count() != 0)
#define preemptible() (preempt_count() == 0 && !irqs_disabled())

void preempt_schedule(void);

#define preempt_disable()                                                      \
	do {                                                                   \
		asm volatile("incl %%gs:%0" : "+m"(__preempt_count) : : "cc"); \
		barrier();                                                     \
	} while (0)

/* No reschedule even if needed: the caller schedules soon anyway. */
#define preempt_enable_no_resched()   \
	do {                          \
		barrier();            \
		preempt_count_sub(1); \
	} while (0)

#define preempt_enable()                                      \
	do {                                                  \
		barrier();                                    \
		if (unlikely(__preempt_count_dec_and_test())) \
			preempt_schedule();                   \
	} while (0)

#endif /* _LINUX_PREEMPT_H */
