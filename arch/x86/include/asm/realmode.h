/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_REALMODE_H
#define _ASM_X86_REALMODE_H

/*
 * The AP trampoline (trampoline_64.S) runs from this page below 1 MiB: a
 * STARTUP IPI starts an AP in real mode at (vector << 12). The e820 map
 * must say the page is RAM; the first MiB is never handed out by the frame
 * allocator, so nothing else lives there.
 */
#define TRAMPOLINE_BASE 0x8000

/* How far the AP got, in trampoline_params.stage. */
#define AP_STAGE_NONE 0
#define AP_STAGE_PROTECTED 1
#define AP_STAGE_LONG 2
#define AP_STAGE_KERNEL 3

/* Offsets into struct trampoline_params, for the assembly. */
#define TP_CR0 0
#define TP_CR3 4
#define TP_CR4 8
#define TP_EFER 12
#define TP_STAGE 16
#define TP_STACK 24

#ifndef __ASSEMBLY__
#include <linux/types.h>

/*
 * Set by the boot CPU before it starts an AP, read by the trampoline: the
 * boot CPU's control registers and EFER (LMA cleared), so that the AP runs
 * with the same paging, NX and write protection; the AP's stack. The AP
 * writes stage as it goes.
 */
struct trampoline_params {
	u32 cr0, cr3, cr4, efer;
	u32 stage;
	u32 reserved;
	u64 stack;
};

extern struct trampoline_params trampoline_params;
extern const char trampoline_start[], trampoline_end[];
#endif

#endif /* _ASM_X86_REALMODE_H */
