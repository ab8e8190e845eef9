/* SPDX-License-Identifier: GPL-2.0 */
/* Workqueue events: a work item's start and end in a kworker. */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM workqueue

#if !defined(_TRACE_WORKQUEUE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_WORKQUEUE_H

#include <linux/tracepoint.h>
#include <linux/workqueue.h>

TRACE_EVENT(workqueue_execute_start,
	TP_PROTO(struct work_struct *work),
	TP_ARGS(work),
	TP_STRUCT__entry(
		__field(void *, work)
		__field(void *, function)
	),
	TP_fast_assign(
		__entry->work = work;
		__entry->function = (void *)work->func;
	),
	TP_printk("work struct %p: function %ps", __entry->work,
		  __entry->function)
);

/* function: the item may have been freed or requeued by its function. */
TRACE_EVENT(workqueue_execute_end,
	TP_PROTO(struct work_struct *work, work_func_t function),
	TP_ARGS(work, function),
	TP_STRUCT__entry(
		__field(void *, work)
		__field(void *, function)
	),
	TP_fast_assign(
		__entry->work = work;
		__entry->function = (void *)function;
	),
	TP_printk("work struct %p: function %ps", __entry->work,
		  __entry->function)
);

#endif /* _TRACE_WORKQUEUE_H */

#include <trace/define_trace.h>
