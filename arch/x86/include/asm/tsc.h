/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_TSC_H
#define _ASM_X86_TSC_H

/* TSC ticks per millisecond; 0 until tsc_init() measured it. */
extern unsigned long tsc_khz;

/* Measures the TSC against the PIT. */
void tsc_init(void);

#endif /* _ASM_X86_TSC_H */
