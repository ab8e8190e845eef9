/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A fuzz seed for the module loader (make fuzz, make fuzz-smoke): an
 * R_X86_64_NONE relocation against an empty .init.text, which has no
 * memory at all. Once "applying zero offset to null pointer" under UBSan
 * (arch/x86/kernel/module.c formed the target's address before it knew
 * there was nothing to write).
 */
	.section .init.text,"ax",@progbits
	.reloc ., R_X86_64_NONE, 0
	.section .modinfo,"a",@progbits
	.asciz "name=fuzz_seed"
	.asciz "license=GPL"
	.section .note.GNU-stack,"",@progbits
