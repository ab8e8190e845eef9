/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_BENCH_TRACE_H
#define _ASM_X86_BENCH_TRACE_H

/*
 * The single-step trap's hook into the instruction trace of
 * <linux/bench.h> (arch/x86/kernel/bench_trace.c): prev_ip has just run
 * (0 on the first trap of a session), regs is the state in which the
 * instruction at regs->ip is about to run. Called with the trap's
 * interrupts off, on the stepped CPU only; does nothing unless a trace is
 * being recorded.
 */
struct pt_regs;

void bench_trace_step(unsigned long prev_ip, const struct pt_regs *regs);

#endif /* _ASM_X86_BENCH_TRACE_H */
