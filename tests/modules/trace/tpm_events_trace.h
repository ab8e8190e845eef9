/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The event of the tpm_events test module: a tracepoint and an event
 * defined in a module (header beside its code, found through
 * TRACE_INCLUDE_PATH, relative to include/trace/).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM tpm

#if !defined(_TPM_EVENTS_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TPM_EVENTS_TRACE_H

#include <linux/tracepoint.h>

TRACE_EVENT(tpm_fire,
	TP_PROTO(int value, unsigned long cookie),
	TP_ARGS(value, cookie),
	TP_STRUCT__entry(
		__field(int, value)
		__field(unsigned long, cookie)
	),
	TP_fast_assign(
		__entry->value = value;
		__entry->cookie = cookie;
	),
	TP_printk("value=%d cookie=0x%lx", __entry->value, __entry->cookie)
);

#endif /* _TPM_EVENTS_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH ../../tests/modules/trace
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE tpm_events_trace
#include <trace/define_trace.h>
