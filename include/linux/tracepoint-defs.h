/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_TRACEPOINT_DEFS_H
#define _LINUX_TRACEPOINT_DEFS_H

/*
 * The tables a module's tracepoints and trace events come in, apart from
 * <linux/tracepoint.h> and <linux/trace.h> so that struct module can
 * embed them (Linux's tracepoint-defs.h keeps the types apart likewise).
 *
 * The loader fills both from the module's __tracepoints_ptrs and
 * _ftrace_events sections, adds them before init
 * (tracepoint_module_coming(), trace_module_add_events()) and removes them
 * after exit or after a failed init.
 */
#include <linux/list.h>

struct module;
struct tracepoint;
struct trace_event_call;

struct tracepoint_table {
	struct list_head list;
	struct module *mod;
	struct tracepoint *const *start;
	unsigned int num;
};

struct trace_event_table {
	struct list_head list;
	struct trace_event_call *const *start;
	unsigned int num;
};

#endif /* _LINUX_TRACEPOINT_DEFS_H */
