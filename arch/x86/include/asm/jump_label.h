/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_JUMP_LABEL_H
#define _ASM_X86_JUMP_LABEL_H

/*
 * x86 static branch sites. Every site is emitted as "jmp l_yes" so that the
 * assembler picks the shortest form that reaches: jmp8 (EB rel8, 2 bytes)
 * or jmp32 (E9 rel32, 5 bytes). After the link, scripts/jump_label_fixup
 * turns the sites whose initial state is NOP into the NOP of the same
 * length (the bytes: <asm/jump_label_insn.h>) and sorts the table.
 * arch_static_branch() and arch_static_branch_jump() thus emit the same
 * code: the initial state is a function of the key's initial value and the
 * branch bit, which the tool reads from the image exactly as the kernel
 * computes it at run time.
 *
 * The entry: three 32-bit offsets, each relative to its own field, so the
 * table needs no relocations and takes 12 bytes per site (Linux: 16).
 */
#ifndef __ASSEMBLY__
#include <linux/types.h>
#include <linux/compiler.h>

struct static_key;

struct jump_entry {
	s32 code;	/* the site */
	s32 target;	/* where its JMP goes */
	s32 key;	/* the key; bit 0: branch, bit 1: site in init text */
} __aligned(4);

#define JUMP_TABLE_ENTRY(key, label)                    \
	".pushsection __jump_table, \"aw\"\n\t"          \
	".balign 4\n\t"                                  \
	".long 1b - .\n\t"                               \
	".long " label " - .\n\t"                        \
	".long " key " - .\n\t"                          \
	".popsection\n\t"

static __always_inline bool arch_static_branch(struct static_key *const key,
					       const bool branch)
{
	asm goto("1: jmp %l[l_yes]\n\t"
		 JUMP_TABLE_ENTRY("%c0 + %c1", "%l[l_yes]")
		 : : "i"(key), "i"(branch) : : l_yes);
	return false;
l_yes:
	return true;
}

/* The same site: its initial state comes from the key (see above). */
static __always_inline bool
arch_static_branch_jump(struct static_key *const key, const bool branch)
{
	return arch_static_branch(key, branch);
}

#endif /* __ASSEMBLY__ */
#endif /* _ASM_X86_JUMP_LABEL_H */
