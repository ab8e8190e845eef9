/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_EXTABLE_H
#define _ASM_X86_EXTABLE_H

/*
 * The exception table: for each instruction allowed to fault, where to go
 * instead of oopsing. Entries hold offsets relative to themselves, so the
 * table needs no relocation and takes 12 bytes an entry.
 *
 * EX_TYPE_DEFAULT: a fault at insn resumes at fixup.
 * EX_TYPE_CALL: insn is the return address of an indirect call whose target
 * cannot be fetched (not mapped, or NX); the fault, taken on the target's
 * first byte, returns to fixup as if the call had come back.
 */
#define EX_TYPE_DEFAULT 0
#define EX_TYPE_CALL 1

#ifdef __ASSEMBLY__
#define _ASM_EXTABLE_TYPE(from, to, type)         \
	.pushsection __ex_table, "a";              \
	.balign 4;                                 \
	.long (from) - .;                          \
	.long (to) - .;                            \
	.long type;                                \
	.popsection
#else
#include <linux/compiler.h>
#include <asm/ptrace.h>

#define _ASM_EXTABLE_TYPE(from, to, type)                      \
	" .pushsection __ex_table, \"a\"\n"                     \
	" .balign 4\n"                                          \
	" .long (" #from ") - .\n"                              \
	" .long (" #to ") - .\n"                                \
	" .long " __stringify(type) "\n"                        \
	" .popsection\n"

struct exception_table_entry {
	int insn, fixup, type;
};

/* Applies a fixup for a fault at regs->ip; true if one was found. */
bool fixup_exception(struct pt_regs *regs, int trapnr, unsigned long err);
#endif

#define _ASM_EXTABLE(from, to) _ASM_EXTABLE_TYPE(from, to, EX_TYPE_DEFAULT)

#endif /* _ASM_X86_EXTABLE_H */
