// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's own trace events, defined in one place (Linux defines each
 * system's in its subsystem's file). Their call sites are in the
 * scheduler, the timer wheel, the workqueues and do_irq(); the
 * definitions (tracepoints, iterators, the tracer's probes and printers)
 * live here, after the benchmarks in the image, so that they move no
 * benchmark code (see arch/x86/kernel/vmlinux.lds.S).
 */
#define CREATE_TRACE_POINTS
#include <trace/events/irq.h>
#include <trace/events/sched.h>
#include <trace/events/timer.h>
#include <trace/events/workqueue.h>
