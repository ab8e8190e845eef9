/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Interrupt events: around the handler of a vector (do_irq(), in
 * arch/x86/kernel/traps.c). irq is the vector; there is one handler per
 * vector, named by its address.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM irq

#if !defined(_TRACE_IRQ_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_IRQ_H

#include <linux/tracepoint.h>

TRACE_EVENT(irq_handler_entry,
	TP_PROTO(int irq, void *handler),
	TP_ARGS(irq, handler),
	TP_STRUCT__entry(
		__field(int, irq)
		__field(void *, handler)
	),
	TP_fast_assign(
		__entry->irq = irq;
		__entry->handler = handler;
	),
	TP_printk("irq=%d handler=%ps", __entry->irq, __entry->handler)
);

/* ret: 1 if a handler ran, 0 for a spurious vector. */
TRACE_EVENT(irq_handler_exit,
	TP_PROTO(int irq, int ret),
	TP_ARGS(irq, ret),
	TP_STRUCT__entry(
		__field(int, irq)
		__field(int, ret)
	),
	TP_fast_assign(
		__entry->irq = irq;
		__entry->ret = ret;
	),
	TP_printk("irq=%d ret=%s", __entry->irq,
		  __entry->ret ? "handled" : "unhandled")
);

#endif /* _TRACE_IRQ_H */

#include <trace/define_trace.h>
