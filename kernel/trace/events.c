// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's own trace events, defined in one place (Linux defines each
 * system's in its subsystem's file). Their call sites are in the
 * scheduler, the timer wheel, the workqueues, do_irq() and the module
 * loader; the definitions (tracepoints, iterators, the tracer's probes
 * and printers) live here, after the benchmarks in the image, so that they move
 * no benchmark code (see arch/x86/kernel/vmlinux.lds.S).
 */
#include <linux/export.h>

#define CREATE_TRACE_POINTS
#include <trace/events/ipi.h>
#include <trace/events/irq.h>
#include <trace/events/module.h>
#include <trace/events/sched.h>
#include <trace/events/syscalls.h>
#include <trace/events/text_poke.h>
#include <trace/events/timer.h>
#include <trace/events/workqueue.h>

/* Modules may attach probes to any of them (and fire them). */
EXPORT_TRACEPOINT_SYMBOL_GPL(irq_handler_entry);
EXPORT_TRACEPOINT_SYMBOL_GPL(irq_handler_exit);
EXPORT_TRACEPOINT_SYMBOL_GPL(module_load);
EXPORT_TRACEPOINT_SYMBOL_GPL(module_free);
EXPORT_TRACEPOINT_SYMBOL_GPL(sched_switch);
EXPORT_TRACEPOINT_SYMBOL_GPL(sched_waking);
EXPORT_TRACEPOINT_SYMBOL_GPL(sched_wakeup);
EXPORT_TRACEPOINT_SYMBOL_GPL(sys_enter);
EXPORT_TRACEPOINT_SYMBOL_GPL(sys_exit);
EXPORT_TRACEPOINT_SYMBOL_GPL(timer_expire_entry);
EXPORT_TRACEPOINT_SYMBOL_GPL(timer_expire_exit);
EXPORT_TRACEPOINT_SYMBOL_GPL(workqueue_execute_start);
EXPORT_TRACEPOINT_SYMBOL_GPL(workqueue_execute_end);
