/* SPDX-License-Identifier: GPL-2.0 */
/*
 * System-call events (Linux's raw_syscalls): every call's entry, with its
 * number and six argument registers, and its exit with the value the user
 * gets in %rax. Fired by syscall_dispatch() (kernel/sys.c); dormant, each
 * costs the NOP of its tracepoint's static key.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM raw_syscalls

#if !defined(_TRACE_SYSCALLS_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_SYSCALLS_H

#include <linux/tracepoint.h>
#include <asm/ptrace.h>

TRACE_EVENT(sys_enter,
	TP_PROTO(struct pt_regs *regs, long id),
	TP_ARGS(regs, id),
	TP_STRUCT__entry(
		__field(long, id)
		__array(unsigned long, args, 6)
	),
	TP_fast_assign(
		__entry->id = id;
		__entry->args[0] = regs->rdi;
		__entry->args[1] = regs->rsi;
		__entry->args[2] = regs->rdx;
		__entry->args[3] = regs->r10;
		__entry->args[4] = regs->r8;
		__entry->args[5] = regs->r9;
	),
	TP_printk("NR %ld (%lx, %lx, %lx, %lx, %lx, %lx)", __entry->id,
		  __entry->args[0], __entry->args[1], __entry->args[2],
		  __entry->args[3], __entry->args[4], __entry->args[5])
);

TRACE_EVENT(sys_exit,
	TP_PROTO(struct pt_regs *regs, long ret),
	TP_ARGS(regs, ret),
	TP_STRUCT__entry(
		__field(long, id)
		__field(long, ret)
	),
	TP_fast_assign(
		__entry->id = regs->error_code;
		__entry->ret = ret;
	),
	TP_printk("NR %ld = %ld", __entry->id, __entry->ret)
);

#endif /* _TRACE_SYSCALLS_H */

/* The system is raw_syscalls, the file syscalls.h, as in Linux. */
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE syscalls
#include <trace/define_trace.h>
