/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_TRACE_H
#define _LINUX_TRACE_H

/*
 * The event tracer (kernel/trace/trace.c, Documentation/tracepoints.rst).
 *
 * Events are enabled by name: "system:event", or a bare word that names
 * an event or a whole system, with shell globs in either part
 * ("sched:*", "irq_handler_*", "*"). On the command line,
 * trace_event=LIST (comma-separated) enables them at boot, and
 * trace_buf_size=BYTES sizes each CPU's ring (default 64 KiB).
 *
 * trace_read_line() consumes the records of every CPU in time order and
 * formats each as Linux's trace file does:
 *
 *   <task>-<pid> [cpu] flags seconds.micros: event: fields
 *
 *             init-1       [000] d..1.    12.345678: sched_switch: prev_comm=init ...
 *
 * flags: 'd' interrupts off, 'N' a reschedule pending, 'h' in a hardirq,
 * then the preemption depth (hex, '.' for 0) and '.' (Linux's
 * migrate-disable). A line "CPU:n [LOST k EVENTS]" comes before the first
 * record read after k of that CPU's were overwritten.
 */
#include <linux/ring_buffer.h>
#include <linux/trace_events.h>
#include <linux/types.h>

/*
 * Enables (set 1) or disables (0) every event matching system and event
 * (NULL matches all; globs allowed). 0 if at least one matched, -EINVAL
 * if none did, or a registration's error. May sleep.
 */
int trace_set_clr_event(const char *system, const char *event, int set);
/* The same for one spec, "system:event" or a bare event or system name. */
int trace_set_event(const char *spec, bool enable);
/*
 * The same for a comma-separated list: 0, or the error of the first spec
 * that failed (each spec that matches nothing is printed, naming it); the
 * rest are applied anyway.
 *
 * Each of the three switches every event it names in one batch
 * (tracepoint_probe_register_batch()): three sync rounds for any number
 * of events, and all of them or none (a refused batch is printed and
 * changes nothing). Events already in the state asked for are skipped.
 */
int trace_set_event_list(const char *list, bool enable);

/* The event called name (NULL system: any), or NULL. */
struct trace_event_call *trace_event_find(const char *system,
					  const char *name);
bool trace_event_is_enabled(const char *system, const char *name);
/* Calls fn for every event, the kernel's then the loaded tables'. */
void for_each_trace_event(void (*fn)(struct trace_event_call *call,
				     void *priv),
			  void *priv);

/*
 * The next line (consumed), at most size bytes, NUL-terminated, with its
 * '\n': its length, or 0 when every CPU's ring is empty. Readers exclude
 * each other (a mutex: process context).
 */
int trace_read_line(char *buf, size_t size);
/*
 * The same, but 0 once the oldest record left is newer than until (a
 * ktime_get_ns() time): a reader that must end although events keep
 * coming reads what the rings held when it started.
 */
int trace_read_line_until(char *buf, size_t size, u64 until);
/*
 * The header Linux's trace file starts with (the nop tracer, irq-info
 * columns): tracer, entries in the buffer and written, CPUs, and the
 * legend of the columns. Returns its length (scnprintf's).
 */
int trace_header(char *buf, size_t size);
/*
 * Consumes the records up to until (a ktime_get_ns() time), as
 * trace_read_line_until() does, and passes them to write as Chrome's
 * trace-event JSON, a line per event, in pieces that end at line ends:
 * one track per CPU, slices for events named *_begin/_entry/_start ..
 * *_end/_exit, instants for the others (Documentation/tracepoints.rst,
 * Exporting). Returns the number of records, or -ENOMEM.
 */
int trace_export_json(void (*write)(const char *s, size_t len, void *priv),
		      void *priv, u64 until);
/* Prints every line left to the console (like ftrace_dump()), consuming. */
void trace_dump(void);
/* Throws away every record still unread. */
void trace_clear(void);
/* Stops or restarts recording (the events stay enabled). */
void tracing_off(void);
void tracing_on(void);
bool tracing_is_on(void);

void trace_cpu_stats(unsigned int cpu, struct ring_buffer_cpu_stats *stats);

/*
 * The event's format, as Linux's events/<system>/<event>/format file: its
 * name, ID, one line per field (common ones first) and the print format.
 * Returns the length (snprintf's: what it would have written).
 */
int trace_event_format(struct trace_event_call *call, char *buf,
		       size_t size);

/* The trace_event= list the kernel booted with, or "" if none. */
const char *trace_boot_events(void);
/*
 * What enabling it cost at boot: text_poke batches and sync rounds (one
 * batch, three rounds, however many events it lists; 0 and 0 without it).
 */
void trace_boot_patch_stats(unsigned long *batches, unsigned long *rounds);

/*
 * The slot for a module's events (its _ftrace_events section, struct
 * trace_event_table in <linux/tracepoint-defs.h>), as for its tracepoints
 * (<linux/tracepoint.h>): added before the module's init, removed after
 * its exit, which also disables those still enabled and waits until no
 * CPU can be in their probes. Without CONFIG_TRACING there is no tracer
 * to tell: the loader's calls do nothing.
 */
#ifdef CONFIG_TRACING
int trace_module_add_events(struct trace_event_table *table);
void trace_module_remove_events(struct trace_event_table *table);
#else
static inline int trace_module_add_events(struct trace_event_table *table)
{
	return 0;
}

static inline void trace_module_remove_events(struct trace_event_table *table)
{
}
#endif

#endif /* _LINUX_TRACE_H */
