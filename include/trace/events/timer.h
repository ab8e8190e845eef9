/* SPDX-License-Identifier: GPL-2.0 */
/* Timer events: a callback's start and end (kernel/time/timer.c). */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM timer

#if !defined(_TRACE_TIMER_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_TIMER_H

#include <linux/jiffies.h>
#include <linux/timer.h>
#include <linux/tracepoint.h>

/* Before timer's callback runs; baseclk is the wheel jiffy it was due at. */
TRACE_EVENT(timer_expire_entry,
	TP_PROTO(struct timer_list *timer, unsigned long baseclk),
	TP_ARGS(timer, baseclk),
	TP_STRUCT__entry(
		__field(void *, timer)
		__field(unsigned long, now)
		__field(void *, function)
		__field(unsigned long, baseclk)
	),
	TP_fast_assign(
		__entry->timer = timer;
		__entry->now = jiffies;
		__entry->function = (void *)timer->function;
		__entry->baseclk = baseclk;
	),
	TP_printk("timer=%p function=%ps now=%lu baseclk=%lu",
		  __entry->timer, __entry->function, __entry->now,
		  __entry->baseclk)
);

/* After it returned (timer may be freed by then: only its address). */
TRACE_EVENT(timer_expire_exit,
	TP_PROTO(struct timer_list *timer),
	TP_ARGS(timer),
	TP_STRUCT__entry(
		__field(void *, timer)
	),
	TP_fast_assign(
		__entry->timer = timer;
	),
	TP_printk("timer=%p", __entry->timer)
);

#endif /* _TRACE_TIMER_H */

#include <trace/define_trace.h>
