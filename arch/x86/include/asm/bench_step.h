/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_BENCH_STEP_H
#define _ASM_X86_BENCH_STEP_H

/*
 * What arch/x86/bench/bench_step.c needs of x86: turning the trap flag on, and
 * telling a control transfer from the bytes of an instruction.
 */
#include <linux/types.h>
#include <asm/processor.h>

/* From the next instruction on, every instruction ends in a #DB trap. */
static __always_inline void arch_single_step_on(void)
{
	asm volatile("pushfq\n\t"
		     "orq %0, (%%rsp)\n\t"
		     "popfq"
		     : : "i"(X86_EFLAGS_TF) : "memory", "cc");
}

/* sti (fb), which arch/x86/bench/bench_step.c does itself. */
static inline bool insn_is_sti(const u8 *p)
{
	return p[0] == 0xfb;
}

enum insn_branch {
	INSN_NOT_BRANCH,
	INSN_BRANCH_COND,	/* jcc, jrcxz, loop */
	INSN_BRANCH,		/* jmp, call, ret, iret, int, ... */
};

static inline bool insn_is_prefix(u8 b)
{
	return b == 0x66 || b == 0x67 || b == 0xf0 || b == 0xf2 ||
	       b == 0xf3 || b == 0x2e || b == 0x3e || b == 0x26 ||
	       b == 0x36 || b == 0x64 || b == 0x65;
}

/*
 * The kind of the instruction at p (kernel text): legacy prefixes and a
 * REX byte are skipped, then the opcode decides. The NOPs of static
 * branch sites (66 90, 0f 1f 44 00 00) are not branches; their JMPs are.
 */
static inline enum insn_branch insn_branch_kind(const u8 *p)
{
	unsigned int i;

	for (i = 0; i < 4 && insn_is_prefix(p[i]); i++)
		;
	p += i;
	if ((p[0] & 0xf0) == 0x40)
		p++;
	if ((p[0] >= 0x70 && p[0] <= 0x7f) || (p[0] >= 0xe0 && p[0] <= 0xe3))
		return INSN_BRANCH_COND;
	switch (p[0]) {
	case 0x0f:
		if ((p[1] & 0xf0) == 0x80)
			return INSN_BRANCH_COND;
		return p[1] == 0x05 || p[1] == 0x07 ? INSN_BRANCH : INSN_NOT_BRANCH;
	case 0xe8: case 0xe9: case 0xeb: case 0x9a: case 0xea:
	case 0xc2: case 0xc3: case 0xca: case 0xcb: case 0xcc: case 0xcd:
	case 0xcf:
		return INSN_BRANCH;
	case 0xff: /* /2 /3 call, /4 /5 jmp, indirect */
		return ((p[1] >> 3) & 7) >= 2 && ((p[1] >> 3) & 7) <= 5 ?
			       INSN_BRANCH : INSN_NOT_BRANCH;
	}
	return INSN_NOT_BRANCH;
}

#endif /* _ASM_X86_BENCH_STEP_H */
