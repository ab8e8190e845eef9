/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_TRACE_EVENTS_H
#define _LINUX_TRACE_EVENTS_H

/*
 * Trace events: tracepoints with a record layout and a print format,
 * recorded by the tracer (kernel/trace/trace.c) into its per-CPU ring
 * buffer. An event is defined with TRACE_EVENT() in a header under
 * include/trace/events/ (Documentation/tracepoints.rst); the file that
 * defines CREATE_TRACE_POINTS before including it gets, for each event
 * class, the record struct, its field table, the probe that fills a
 * record and the function that prints one (<trace/trace_events.h>), and
 * for each event a struct trace_event_call in the section _ftrace_events.
 *
 * The tracer enables an event by registering the class's probe on the
 * event's tracepoint, with the trace_event_call as its data: so enabling
 * one event flips exactly its tracepoint's key.
 */
#include <linux/list.h>
#include <linux/ring_buffer.h>
#include <linux/tracepoint.h>
#include <linux/types.h>

/* The start of every record. */
struct trace_entry {
	unsigned short type;		/* the event's trace_event_call.type */
	unsigned char flags;		/* TRACE_FLAG_* */
	unsigned char preempt_count;	/* the writer's preemption depth */
	int pid;			/* the writer's task */
};

#define TRACE_FLAG_IRQS_OFF 0x01
#define TRACE_FLAG_NEED_RESCHED 0x04
#define TRACE_FLAG_HARDIRQ 0x08

/* One field of a record, for the event's format. */
struct trace_event_field {
	const char *type;
	const char *name;
	unsigned int offset;
	unsigned int size;
	bool is_signed;
	unsigned int count;	/* elements of an __array(), else 0 */
};

/* What the events of one DECLARE_EVENT_CLASS() share. */
struct trace_event_class {
	const char *system;		/* TRACE_SYSTEM */
	void *probe;			/* void (*)(void *call, proto) */
	const struct trace_event_field *(*fields)(void); /* ends with name NULL */
	unsigned int size;		/* the record, struct trace_entry included */
	/* Prints the record's fields (TP_printk) into buf: its length. */
	int (*output)(char *buf, size_t size, const void *entry);
	const char *print_fmt;
};

struct trace_event_call {
	const char *name;
	struct trace_event_class *class;
	struct tracepoint *tp;
	unsigned short type;	/* record type, set when the tracer starts */
	bool enabled;		/* under the tracer's event_mutex */
};

/* Between the probe's reserve and commit. */
struct trace_event_buffer {
	struct ring_buffer_handle handle;
};

#ifdef CONFIG_TRACING
/* The probe's side (see <trace/trace_events.h>). */
void *trace_event_buffer_reserve(struct trace_event_buffer *fbuffer,
				 struct trace_event_call *call,
				 unsigned long len);
void trace_event_buffer_commit(struct trace_event_buffer *fbuffer);
#endif

extern struct trace_event_call *const __start_ftrace_events[];
extern struct trace_event_call *const __stop_ftrace_events[];

#endif /* _LINUX_TRACE_EVENTS_H */
