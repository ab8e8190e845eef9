/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_STACKTRACE_H
#define _ASM_X86_STACKTRACE_H

#include <asm/ptrace.h>

/* Prints the return addresses of the frame-pointer chain starting at bp. */
void show_stack_from(unsigned long bp, const char *lvl);
/* For an exception: also the likely return address of a frameless leaf. */
void show_stack_regs(struct pt_regs *regs, const char *lvl);
void dump_stack(void);
void show_regs(struct pt_regs *regs);

#endif /* _ASM_X86_STACKTRACE_H */
