/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where an AP starts. The boot CPU copies trampoline_start..trampoline_end
 * to TRAMPOLINE_BASE and sends STARTUP IPIs with that page's number: the
 * AP begins there in real mode, CS:IP = (TRAMPOLINE_BASE >> 4):0.
 *
 * 1. real mode: load the trampoline's GDT, set CR0.PE;
 * 2. 32-bit protected mode, paging off: the boot CPU's CR4 (PAE), CR3 (the
 *    kernel's page tables) and EFER (LME, NXE), then its CR0 (PG, WP):
 *    long mode, compatibility submode, still running at TRAMPOLINE_BASE,
 *    which the kernel page tables map there (executable, read-only) while
 *    APs start;
 * 3. a far jump into 64-bit code, then onto the AP's stack and into
 *    start_secondary(), in the kernel proper.
 *
 * The code runs at TRAMPOLINE_BASE, not where it is linked, so it names
 * its own labels TR_ADDR(label), and kernel data by its physical address
 * (PHYS()) before paging and by its virtual address after. The GDT's
 * descriptors are marked accessed already: the CPU would otherwise set
 * that bit, a write to a read-only page. trampoline_params.stage records
 * the progress for the boot CPU's timeout message.
 */
#include <asm/page.h>
#include <asm/realmode.h>

#define TR_ADDR(x) (TRAMPOLINE_BASE + (x) - trampoline_start)
#define PHYS(x) ((x) - __KERNEL_VIRT_BASE)
#define TP(field) (PHYS(trampoline_params) + (field))

#define TR_CS32 0x08
#define TR_DS 0x10
#define TR_CS64 0x18
#define MSR_EFER 0xc0000080
#define X86_CR0_PE 1

	/* Copied, never run in place: no need for it to be executable. */
	.section .rodata, "a"
	.balign 16
	.globl trampoline_start, trampoline_end
	.code16
trampoline_start:
	cli
	cld
	/* 1. */
	mov	%cs, %ax
	mov	%ax, %ds
	lgdtl	tr_gdt_desc - trampoline_start
	mov	%cr0, %eax
	or	$X86_CR0_PE, %eax
	mov	%eax, %cr0
	ljmpl	$TR_CS32, $TR_ADDR(tr_protected)

	.code32
tr_protected:
	/* 2. */
	mov	$TR_DS, %ax
	mov	%ax, %ds
	mov	%ax, %es
	mov	%ax, %ss
	movl	$AP_STAGE_PROTECTED, TP(TP_STAGE)
	mov	TP(TP_CR4), %eax
	mov	%eax, %cr4
	mov	TP(TP_CR3), %eax
	mov	%eax, %cr3
	mov	$MSR_EFER, %ecx
	mov	TP(TP_EFER), %eax
	xor	%edx, %edx
	wrmsr
	mov	TP(TP_CR0), %eax
	mov	%eax, %cr0
	ljmp	$TR_CS64, $TR_ADDR(tr_long)

	.code64
tr_long:
	/* 3. */
	movabs	$trampoline_params, %rax
	movl	$AP_STAGE_LONG, TP_STAGE(%rax)
	mov	TP_STACK(%rax), %rsp
	/* End of the frame-pointer chain: rbp 0, return address 0. */
	xor	%ebp, %ebp
	pushq	$0
	movabs	$start_secondary, %rax
	jmp	*%rax

	.balign 8
tr_gdt:
	.quad	0
	.quad	0x00cf9b000000ffff		/* 0x08: 32-bit code */
	.quad	0x00cf93000000ffff		/* 0x10: data */
	.quad	0x00af9b000000ffff		/* 0x18: 64-bit code */
tr_gdt_end:
tr_gdt_desc:
	.short	tr_gdt_end - tr_gdt - 1
	.long	TR_ADDR(tr_gdt)
trampoline_end:

	.section .note.GNU-stack, "", @progbits
