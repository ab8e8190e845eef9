// SPDX-License-Identifier: GPL-2.0
/*
 * The x86 side of jump labels: which bytes a site holds in each state, the
 * check of the old bytes before any write, and queueing into the patch
 * engine's batch (the apply is the text batch's, arch_text_batch_apply()
 * in text_patch.c). The hooks and their contract: <linux/jump_label_arch.h>.
 */
#include <linux/kernel.h>
#include <linux/text-patching.h>
#include <linux/cpu.h>
#include <linux/jump_label_arch.h>
#include <linux/mutex.h>
#include <linux/string.h>
#include <asm/jump_label_insn.h>
#include <asm/text-patching.h>

bool arch_jump_entry_is_short(struct jump_entry *entry)
{
	return text_insn_is_short(*(u8 *)jump_entry_code(entry));
}

int arch_jump_entry_size(struct jump_entry *entry)
{
	return arch_jump_entry_is_short(entry) ? JUMP_LABEL_SHORT_SIZE :
						 JUMP_LABEL_LONG_SIZE;
}

/* The instruction of @type for a site of @size bytes into @insn. */
static __always_inline void jump_label_insn(struct jump_entry *entry,
					    enum jump_label_type type,
					    int size, u8 *insn)
{
	if (type == JUMP_LABEL_NOP)
		text_gen_nop(insn, size);
	else
		text_gen_jmp(insn, size, jump_entry_code(entry),
			     jump_entry_target(entry));
}

/* Prints the site, its key and both instructions; returns -EINVAL. */
static int jump_label_bad_site(struct jump_entry *entry,
			       enum jump_label_type type, int size,
			       const u8 *want)
{
	const u8 *code = (const u8 *)jump_entry_code(entry);

	pr_err("jump_label: site %pS (key %pS, %s) holds %*ph, expected %*ph\n",
	       code, jump_entry_key(entry), type == JUMP_LABEL_JMP ? "jmp" : "nop",
	       size, code, size, want);
	return -EINVAL;
}

bool arch_jump_label_site_holds(struct jump_entry *entry,
				enum jump_label_type type)
{
	int size = arch_jump_entry_size(entry);
	u8 want[JUMP_LABEL_MAX_SIZE];

	jump_label_insn(entry, type, size, want);
	return text_insn_same((u8 *)jump_entry_code(entry), want, size);
}

int arch_jump_label_check_site(struct jump_entry *entry,
			       enum jump_label_type type)
{
	int size = arch_jump_entry_size(entry);
	u8 want[JUMP_LABEL_MAX_SIZE];

	if (arch_jump_label_site_holds(entry, type))
		return 0;
	jump_label_insn(entry, type, size, want);
	return jump_label_bad_site(entry, type, size, want);
}

void arch_jump_label_transform_queue(struct jump_entry *entry,
				     enum jump_label_type type)
{
	u8 *code = (u8 *)jump_entry_code(entry);
	int size = arch_jump_entry_size(entry);
	u8 old[JUMP_LABEL_MAX_SIZE], insn[JUMP_LABEL_MAX_SIZE];

	BUILD_BUG_ON(JUMP_LABEL_MAX_SIZE > POKE_MAX_OPCODE_SIZE);
	/*
	 * Refuse to write over bytes we did not put there. text_mutex is held
	 * (text_poke_queue() asserts it), so nobody else writes the site
	 * between this check and the batch's write.
	 */
	jump_label_insn(entry, !type, size, old);
	if (!text_insn_same(code, old, size)) {
		jump_label_bad_site(entry, !type, size, old);
		panic("jump_label: refusing to patch %pS for key %pS: unexpected instruction",
		      code, jump_entry_key(entry));
	}
	jump_label_insn(entry, type, size, insn);
	text_poke_queue(code, insn, size);
	text_poke_jump_label_sites++;
}
