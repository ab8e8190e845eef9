/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Cross-CPU calls (kernel/smp.c): a call queued for a CPU and its IPI
 * sent, and the function run on the CPU that took it, from entry to exit
 * (Linux's ipi_send_cpu, csd_function_entry and csd_function_exit). A
 * call a CPU makes on itself runs without an IPI and is not recorded.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM ipi

#if !defined(_TRACE_IPI_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_IPI_H

#include <linux/tracepoint.h>

TRACE_EVENT(ipi_send_cpu,
	TP_PROTO(unsigned int cpu, void *callback),
	TP_ARGS(cpu, callback),
	TP_STRUCT__entry(
		__field(unsigned int, cpu)
		__field(void *, callback)
	),
	TP_fast_assign(
		__entry->cpu = cpu;
		__entry->callback = callback;
	),
	TP_printk("cpu=%u callback=%ps", __entry->cpu, __entry->callback)
);

DECLARE_EVENT_CLASS(csd_function,
	TP_PROTO(void *func, void *csd),
	TP_ARGS(func, csd),
	TP_STRUCT__entry(
		__field(void *, func)
		__field(void *, csd)
	),
	TP_fast_assign(
		__entry->func = func;
		__entry->csd = csd;
	),
	TP_printk("func=%ps csd=%p", __entry->func, __entry->csd)
);

DEFINE_EVENT(csd_function, csd_function_entry,
	TP_PROTO(void *func, void *csd),
	TP_ARGS(func, csd)
);

DEFINE_EVENT(csd_function, csd_function_exit,
	TP_PROTO(void *func, void *csd),
	TP_ARGS(func, csd)
);

#endif /* _TRACE_IPI_H */

#include <trace/define_trace.h>
