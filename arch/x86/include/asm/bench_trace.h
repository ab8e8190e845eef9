/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_BENCH_TRACE_H
#define _ASM_X86_BENCH_TRACE_H

/*
 * The single-step trap's hook into the instruction trace of
 * <linux/bench.h> (arch/x86/bench/bench_trace.c): prev_ip has just run
 * (0 on the first trap of a session), regs is the state in which the
 * instruction at regs->ip is about to run. Called with the trap's
 * interrupts off, on the stepped CPU only; does nothing unless a trace is
 * being recorded.
 */
#include <linux/types.h>

struct pt_regs;

void bench_trace_step(unsigned long prev_ip, const struct pt_regs *regs);

/* The kinds of the header byte's bits 0-2, and its flags. */
enum bt_kind {
	BT_PLAIN,
	BT_COND, /* jcc, jrcxz, loop */
	BT_JMP, /* jmp rel */
	BT_CALL, /* call rel */
	BT_JMP_IND, /* jmp r/m */
	BT_CALL_IND, /* call r/m */
	BT_RET, /* ret, ret imm16 */
	BT_OTHER, /* int, iret, syscall, far transfers */
};

#define BT_KIND 0x07
#define BT_TAKEN 0x08
#define BT_READ 0x10

/* The trace recorded so far (its tests read it): its bytes, or NULL. */
const u8 *bench_trace_bytes(size_t *len);
/* True once a record did not fit: the trace is cut short. */
bool bench_trace_overflowed(void);

#endif /* _ASM_X86_BENCH_TRACE_H */
