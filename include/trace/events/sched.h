/* SPDX-License-Identifier: GPL-2.0 */
/* Scheduler events: the switch, and a wake-up before and after it queues. */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM sched

#if !defined(_TRACE_SCHED_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_SCHED_H

#include <linux/sched.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#ifndef _TRACE_SCHED_HELPERS
#define _TRACE_SCHED_HELPERS
/* prev_state of a task switched out by preemption: it stays runnable. */
#define TRACE_SCHED_PREEMPTED 0x1000L

static inline long __trace_sched_switch_state(bool preempt,
					      unsigned int prev_state)
{
	return preempt ? TASK_RUNNING | TRACE_SCHED_PREEMPTED : prev_state;
}

/* As Linux prints it: R, R+ (preempted), S, D, X (dead). */
static inline const char *__trace_sched_state_name(long state)
{
	if (state & TRACE_SCHED_PREEMPTED)
		return "R+";
	switch (state) {
	case TASK_RUNNING:
		return "R";
	case TASK_INTERRUPTIBLE:
		return "S";
	case TASK_UNINTERRUPTIBLE:
		return "D";
	case TASK_DEAD:
		return "X";
	}
	return "?";
}
#endif

/* In __schedule(), rq lock held, before the switch from prev to next. */
TRACE_EVENT(sched_switch,
	TP_PROTO(bool preempt, struct task_struct *prev,
		 struct task_struct *next, unsigned int prev_state),
	TP_ARGS(preempt, prev, next, prev_state),
	TP_STRUCT__entry(
		__array(char, prev_comm, TASK_COMM_LEN)
		__field(int, prev_pid)
		__field(long, prev_state)
		__array(char, next_comm, TASK_COMM_LEN)
		__field(int, next_pid)
	),
	TP_fast_assign(
		memcpy(__entry->prev_comm, prev->comm, TASK_COMM_LEN);
		__entry->prev_pid = prev->pid;
		__entry->prev_state =
			__trace_sched_switch_state(preempt, prev_state);
		memcpy(__entry->next_comm, next->comm, TASK_COMM_LEN);
		__entry->next_pid = next->pid;
	),
	TP_printk("prev_comm=%s prev_pid=%d prev_state=%s ==> next_comm=%s next_pid=%d",
		  __entry->prev_comm, __entry->prev_pid,
		  __trace_sched_state_name(__entry->prev_state),
		  __entry->next_comm, __entry->next_pid)
);

DECLARE_EVENT_CLASS(sched_wakeup_template,
	TP_PROTO(struct task_struct *p),
	TP_ARGS(p),
	TP_STRUCT__entry(
		__array(char, comm, TASK_COMM_LEN)
		__field(int, pid)
		__field(int, target_cpu)
	),
	TP_fast_assign(
		memcpy(__entry->comm, p->comm, TASK_COMM_LEN);
		__entry->pid = p->pid;
		__entry->target_cpu = p->cpu;
	),
	TP_printk("comm=%s pid=%d target_cpu=%03d", __entry->comm,
		  __entry->pid, __entry->target_cpu)
);

/* wake_up_process() of a sleeping task, before it takes the rq lock. */
DEFINE_EVENT(sched_wakeup_template, sched_waking,
	TP_PROTO(struct task_struct *p),
	TP_ARGS(p));

/* The same wake-up once p is runnable (rq lock held). */
DEFINE_EVENT(sched_wakeup_template, sched_wakeup,
	TP_PROTO(struct task_struct *p),
	TP_ARGS(p));

#endif /* _TRACE_SCHED_H */

#include <trace/define_trace.h>
