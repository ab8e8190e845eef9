/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The events of the "trace_events" suite (kernel/trace/trace_test.c): a
 * header beside its code, found through TRACE_INCLUDE_PATH (relative to
 * include/trace/, where <trace/define_trace.h> is).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM trace_test

#if !defined(_TRACE_TEST_EVENTS_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_TEST_EVENTS_H

#include <linux/string.h>
#include <linux/tracepoint.h>

TRACE_EVENT(trace_test_event,
	TP_PROTO(int a, const char *s, unsigned long long big),
	TP_ARGS(a, s, big),
	TP_STRUCT__entry(
		__field(int, a)
		__array(char, s, 8)
		__field(unsigned long long, big)
	),
	TP_fast_assign(
		__entry->a = a;
		strscpy(__entry->s, s, sizeof(__entry->s));
		__entry->big = big;
	),
	TP_printk("a=%d s=%s big=%llu", __entry->a, __entry->s, __entry->big)
);

DECLARE_EVENT_CLASS(trace_test_class,
	TP_PROTO(int v),
	TP_ARGS(v),
	TP_STRUCT__entry(
		__field(int, v)
	),
	TP_fast_assign(
		__entry->v = v;
	),
	TP_printk("v=%d", __entry->v)
);

DEFINE_EVENT(trace_test_class, trace_test_one, TP_PROTO(int v), TP_ARGS(v));
DEFINE_EVENT(trace_test_class, trace_test_two, TP_PROTO(int v), TP_ARGS(v));

#endif /* _TRACE_TEST_EVENTS_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH ../../kernel/trace
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace_test_events
#include <trace/define_trace.h>
