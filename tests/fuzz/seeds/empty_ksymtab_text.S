/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A fuzz seed for the module loader (make fuzz, make fuzz-smoke): an
 * empty __ksymtab in the text region of a module with no text, a region
 * that gets no memory at all. Once "applying zero offset to null
 * pointer" under UBSan (module_check_exports() formed the address of the
 * section's first export before it knew there was none).
 */
	.section __ksymtab,"ax",@progbits
__ksymtab_start:
	.section .modinfo,"a",@progbits
	.asciz "name=fuzz_seed"
	.asciz "license=GPL"
	.section .note.GNU-stack,"",@progbits
