// SPDX-License-Identifier: GPL-2.0
/*
 * The x86 side of jump labels: which bytes a site holds in each state, the
 * check of the old bytes before any write, and queueing into the text
 * patching batch. The hooks and their contract: <linux/jump_label_arch.h>.
 */
#include <linux/kernel.h>
#include <linux/jump_label_arch.h>
#include <linux/mutex.h>
#include <linux/string.h>
#include <asm/jump_label_insn.h>
#include <asm/text-patching.h>

static const u8 nop2[JUMP_LABEL_SHORT_SIZE] = { JUMP_LABEL_NOP2_BYTES };
static const u8 nop5[JUMP_LABEL_LONG_SIZE] = { JUMP_LABEL_NOP5_BYTES };

bool arch_jump_entry_is_short(struct jump_entry *entry)
{
	u8 op = *(u8 *)jump_entry_code(entry);

	return op == JMP8_INSN_OPCODE || op == nop2[0];
}

int arch_jump_entry_size(struct jump_entry *entry)
{
	return arch_jump_entry_is_short(entry) ? JUMP_LABEL_SHORT_SIZE :
						 JUMP_LABEL_LONG_SIZE;
}

/*
 * The instruction of @type for a site of @size bytes into @insn. Fixed-size
 * copies and compares: this runs for every site of every flip.
 */
static void jump_label_insn(struct jump_entry *entry, enum jump_label_type type,
			    int size, u8 *insn)
{
	long disp;
	s32 rel32;

	if (type == JUMP_LABEL_NOP) {
		if (size == JUMP_LABEL_SHORT_SIZE)
			__builtin_memcpy(insn, nop2, JUMP_LABEL_SHORT_SIZE);
		else
			__builtin_memcpy(insn, nop5, JUMP_LABEL_LONG_SIZE);
		return;
	}
	disp = (long)jump_entry_target(entry) -
	       (long)(jump_entry_code(entry) + size);
	if (size == JUMP_LABEL_SHORT_SIZE) {
		insn[0] = JMP8_INSN_OPCODE;
		insn[1] = (s8)disp;
	} else {
		rel32 = disp;
		insn[0] = JMP32_INSN_OPCODE;
		__builtin_memcpy(insn + 1, &rel32, sizeof(rel32));
	}
}

static bool jump_label_insn_equal(const u8 *a, const u8 *b, int size)
{
	u32 x, y;
	u16 p, q;

	if (size == JUMP_LABEL_SHORT_SIZE) {
		__builtin_memcpy(&p, a, sizeof(p));
		__builtin_memcpy(&q, b, sizeof(q));
		return p == q;
	}
	__builtin_memcpy(&x, a, sizeof(x));
	__builtin_memcpy(&y, b, sizeof(y));
	return x == y && a[4] == b[4];
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
	return jump_label_insn_equal((u8 *)jump_entry_code(entry), want, size);
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
	/* Refuse to write over bytes we did not put there. */
	jump_label_insn(entry, !type, size, old);
	if (!jump_label_insn_equal(code, old, size)) {
		jump_label_bad_site(entry, !type, size, old);
		panic("jump_label: refusing to patch %pS for key %pS: unexpected instruction",
		      code, jump_entry_key(entry));
	}
	jump_label_insn(entry, type, size, insn);
	mutex_lock(&text_mutex);
	text_poke_queue(code, insn, size);
	mutex_unlock(&text_mutex);
}

void arch_jump_label_transform_apply(void)
{
	mutex_lock(&text_mutex);
	text_poke_finish();
	mutex_unlock(&text_mutex);
}
