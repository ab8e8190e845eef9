/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Byte-wise copies that may fault, and a call that may fail to fetch its
 * target; see <linux/uaccess.h>. Each instruction allowed to fault has an
 * exception table entry that sends it to the -EFAULT return.
 */
#include <asm/extable.h>

#define EFAULT 14

	.text
/* long __copy_nofault(void *dst, const void *src, size_t n) */
	.globl copy_from_kernel_nofault, copy_to_kernel_nofault
copy_from_kernel_nofault:
copy_to_kernel_nofault:
	test	%rdx, %rdx
	jz	2f
1:	movb	(%rsi), %al
3:	movb	%al, (%rdi)
	inc	%rsi
	inc	%rdi
	dec	%rdx
	jnz	1b
2:	xor	%eax, %eax
	ret
4:	mov	$-EFAULT, %rax
	ret
	_ASM_EXTABLE(1b, 4b)
	_ASM_EXTABLE(3b, 4b)

/* long call_nofault(void (*fn)(void)) */
	.globl call_nofault
call_nofault:
	push	%rbp
	mov	%rsp, %rbp
	call	*%rdi
5:	xor	%eax, %eax
	pop	%rbp
	ret
6:	mov	$-EFAULT, %rax
	pop	%rbp
	ret
	_ASM_EXTABLE_TYPE(5b, 6b, EX_TYPE_CALL)

	.section .note.GNU-stack, "", @progbits
