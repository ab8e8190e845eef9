/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Entry from GRUB (multiboot2): 32-bit protected mode, paging off, EAX holds
 * the multiboot2 magic and EBX the physical address of the boot information.
 *
 * 1. zero .bss and switch to the boot stack (addresses are physical here);
 * 2. build boot page tables from 2 MiB pages: the first 4 GiB identity
 *    mapped, at __PAGE_OFFSET (the direct map) and the first 1 GiB at
 *    __KERNEL_VIRT_BASE (the image);
 * 3. enable PAE, long mode and NX (EFER), paging and write protection;
 * 4. far jump into 64-bit code, then jump to the higher half and call
 *    x86_64_start_kernel(magic, info), which builds the real page tables.
 */
#include <asm/page.h>

#define MB2_MAGIC 0xe85250d6
#define MB2_ARCH_I386 0
#define PHYS(x) ((x) - __KERNEL_VIRT_BASE)

#define PTE_P 0x1
#define PTE_W 0x2
#define PTE_PS 0x80

	.section .multiboot, "a"
	.balign 8
mb2_header:
	.long MB2_MAGIC
	.long MB2_ARCH_I386
	.long mb2_header_end - mb2_header
	.long 0x100000000 - (MB2_MAGIC + MB2_ARCH_I386 + (mb2_header_end - mb2_header))
	/* Entry address tag: GRUB jumps here (physical) whatever e_entry says. */
	.balign 8
	.short 3, 0
	.long 12
	.long PHYS(startup_32)
	.balign 8
	.short 0, 0
	.long 8
mb2_header_end:

	.section .head.text, "ax"
	.code32
	.globl startup_32
startup_32:
	cli
	cld
	mov	%eax, %esi			/* magic */
	mov	%ebx, %ebp			/* boot information */

	/* 1. Zero .bss; the boot stack and page tables live there. */
	mov	$PHYS(__bss_start), %edi
	mov	$PHYS(__bss_stop), %ecx
	sub	%edi, %ecx
	shr	$2, %ecx
	xor	%eax, %eax
	rep stosl
	mov	$PHYS(boot_stack_top), %esp

	/* No long mode, no kernel: hang with a message on the serial port. */
	mov	$0x80000001, %eax
	cpuid
	test	$(1 << 29), %edx
	jz	no_long_mode

	/* 2. Four page directories of 2 MiB pages cover 0..4 GiB. */
	mov	$PHYS(boot_pd), %edi
	mov	$(PTE_P | PTE_W | PTE_PS), %eax
	xor	%edx, %edx
	mov	$2048, %ecx
1:	mov	%eax, (%edi)
	mov	%edx, 4(%edi)
	add	$0x200000, %eax
	adc	$0, %edx
	add	$8, %edi
	loop	1b

	/* boot_pdpt_low[0..3] -> the four directories (identity + direct map) */
	mov	$PHYS(boot_pdpt_low), %edi
	mov	$PHYS(boot_pd) + (PTE_P | PTE_W), %eax
	mov	$4, %ecx
2:	mov	%eax, (%edi)
	add	$PAGE_SIZE, %eax
	add	$8, %edi
	loop	2b

	/* boot_pdpt_high[510] -> the first directory: 0xffffffff80000000 */
	mov	$PHYS(boot_pd) + (PTE_P | PTE_W), %eax
	mov	%eax, PHYS(boot_pdpt_high) + 510 * 8

	mov	$PHYS(boot_pdpt_low) + (PTE_P | PTE_W), %eax
	mov	%eax, PHYS(boot_pml4)
	mov	%eax, PHYS(boot_pml4) + ((__PAGE_OFFSET >> 39) & 511) * 8
	mov	$PHYS(boot_pdpt_high) + (PTE_P | PTE_W), %eax
	mov	%eax, PHYS(boot_pml4) + 511 * 8

	/* 3. PAE, then EFER.LME and EFER.NXE if the CPU has NX, then paging. */
	mov	$PHYS(boot_pml4), %eax
	mov	%eax, %cr3
	mov	%cr4, %eax
	or	$(1 << 5), %eax
	mov	%eax, %cr4
	mov	$0x80000001, %eax
	cpuid
	mov	%edx, %ebx
	mov	$0xc0000080, %ecx
	rdmsr
	or	$(1 << 8), %eax
	test	$(1 << 20), %ebx
	jz	3f
	or	$(1 << 11), %eax
3:	wrmsr
	mov	%cr0, %eax
	or	$0x80010001, %eax		/* PG | WP | PE */
	mov	%eax, %cr0

	/* 4. Into 64-bit mode, still at the physical address. */
	lgdt	PHYS(boot_gdt_desc)
	ljmp	$0x08, $PHYS(startup_64_low)

no_long_mode:
	mov	$PHYS(no_lm_msg), %ebx
	mov	$0x3f8, %dx
4:	movb	(%ebx), %al
	test	%al, %al
	jz	5f
	outb	%al, %dx
	inc	%ebx
	jmp	4b
5:	hlt
	jmp	5b

	.code64
startup_64_low:
	movabs	$startup_64, %rax
	jmp	*%rax

	.text
startup_64:
	/* Reload the GDT through its higher-half address and the segments. */
	lgdt	boot_gdt_desc64
	mov	$0x10, %ax
	mov	%ax, %ds
	mov	%ax, %es
	mov	%ax, %ss
	xor	%eax, %eax
	mov	%ax, %fs
	mov	%ax, %gs
	movabs	$boot_stack_top, %rsp
	mov	%esi, %edi			/* magic */
	mov	%ebp, %esi			/* boot information (physical) */
	xor	%ebp, %ebp			/* end of the frame-pointer chain */
	call	x86_64_start_kernel
6:	hlt
	jmp	6b

	.section .rodata
no_lm_msg:
	.asciz	"This CPU has no long mode: cannot boot.\r\n"

	.balign 16
boot_gdt:
	.quad	0
	.quad	0x00af9a000000ffff		/* 0x08: 64-bit code */
	.quad	0x00cf92000000ffff		/* 0x10: data */
boot_gdt_end:
boot_gdt_desc:
	.short	boot_gdt_end - boot_gdt - 1
	.long	PHYS(boot_gdt)
	.balign 8
boot_gdt_desc64:
	.short	boot_gdt_end - boot_gdt - 1
	.quad	boot_gdt

	.section .bss..page_aligned, "aw", @nobits
	.balign PAGE_SIZE
	.globl boot_pml4
boot_pml4:
	.skip	PAGE_SIZE
boot_pdpt_low:
	.skip	PAGE_SIZE
boot_pdpt_high:
	.skip	PAGE_SIZE
boot_pd:
	.skip	4 * PAGE_SIZE
	.globl boot_stack_bottom, boot_stack_top
boot_stack_bottom:
	.skip	4 * PAGE_SIZE
boot_stack_top:

	.section .note.GNU-stack, "", @progbits
