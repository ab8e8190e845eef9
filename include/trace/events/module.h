/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Module events (Linux's module_load and module_free), fired by the loader
 * (kernel/module/main.c): module_load once the module is linked, with its
 * tracepoints and events listed, just before its init runs; module_free
 * after its exit (or its failed init), before its memory goes.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM module

#if !defined(_TRACE_MODULE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_MODULE_H

#include <linux/module.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

DECLARE_EVENT_CLASS(module_name,
	TP_PROTO(struct module *mod),
	TP_ARGS(mod),
	TP_STRUCT__entry(
		__array(char, name, MODULE_NAME_LEN)
	),
	TP_fast_assign(
		memcpy(__entry->name, mod->name, MODULE_NAME_LEN);
	),
	TP_printk("%s", __entry->name)
);

DEFINE_EVENT(module_name, module_load,
	TP_PROTO(struct module *mod),
	TP_ARGS(mod)
);

DEFINE_EVENT(module_name, module_free,
	TP_PROTO(struct module *mod),
	TP_ARGS(mod)
);

#endif /* _TRACE_MODULE_H */

#include <trace/define_trace.h>
