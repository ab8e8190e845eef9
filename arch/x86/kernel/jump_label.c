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

/* The site does not hold what it should: named, then a panic. */
static noinline __noreturn void jump_label_refuse(struct jump_entry *entry,
						  enum jump_label_type type)
{
	arch_jump_label_check_site(entry, !type);
	panic("jump_label: refusing to patch %pS for key %pS: unexpected instruction",
	      (void *)jump_entry_code(entry), jump_entry_key(entry));
}

/*
 * True if the site of @size bytes (a constant) at @code holds the
 * instruction of @type: compared in place, without building it.
 */
static __always_inline bool jump_label_site_is(struct jump_entry *entry,
					       const u8 *code,
					       enum jump_label_type type,
					       int size)
{
	static const u8 nop2[] = { JUMP_LABEL_NOP2_BYTES };
	static const u8 nop5[] = { JUMP_LABEL_NOP5_BYTES };
	long disp = (long)jump_entry_target(entry) - (long)(code + size);
	u32 w, nop5_w;
	u16 h, nop2_h;
	s32 rel32;

	if (type == JUMP_LABEL_NOP && size == JUMP_LABEL_SHORT_SIZE) {
		__builtin_memcpy(&h, code, 2);
		__builtin_memcpy(&nop2_h, nop2, 2);
		return h == nop2_h;
	}
	if (type == JUMP_LABEL_NOP) {
		__builtin_memcpy(&w, code, 4);
		__builtin_memcpy(&nop5_w, nop5, 4);
		return w == nop5_w && code[4] == nop5[4];
	}
	if (size == JUMP_LABEL_SHORT_SIZE)
		return code[0] == JMP8_INSN_OPCODE && code[1] == (u8)(s8)disp;
	__builtin_memcpy(&rel32, code + 1, 4);
	return code[0] == JMP32_INSN_OPCODE && rel32 == (s32)disp;
}

/*
 * The queueing of a site of @size bytes (a constant: each size its own
 * code), into the slot @tp reserved for it.
 */
static __always_inline void jump_label_queue_sized(struct text_poke_loc *tp,
						   struct jump_entry *entry,
						   u8 *code,
						   enum jump_label_type type,
						   int size)
{
	/*
	 * Refuse to write over bytes we did not put there. The text batch
	 * holds text_mutex, so nobody else writes the site between this check
	 * and the batch's write. The new bytes go straight into the queue.
	 */
	if (unlikely(!jump_label_site_is(entry, code, !type, size)))
		jump_label_refuse(entry, type);
	text_poke_queue_commit(tp, code, size);
	jump_label_insn(entry, type, size, tp->opcode);
}

static void jump_label_queue_grow(struct jump_entry *entry,
				  enum jump_label_type type);

/*
 * Runs for every site of every flip: with room in the queue it calls
 * nothing (the refusal does not return), so it saves no register.
 */
static __always_inline void
__arch_jump_label_transform_queue(struct jump_entry *entry,
				  enum jump_label_type type)
{
	struct text_poke_loc *tp;
	u8 *code;

	BUILD_BUG_ON(JUMP_LABEL_MAX_SIZE > POKE_MAX_OPCODE_SIZE);
	if (unlikely(text_poke_queue_full())) {
		jump_label_queue_grow(entry, type);
		return;
	}
	tp = text_poke_queue_next();
	code = (u8 *)jump_entry_code(entry);
	if (text_insn_is_short(*code))
		jump_label_queue_sized(tp, entry, code, type,
				       JUMP_LABEL_SHORT_SIZE);
	else
		jump_label_queue_sized(tp, entry, code, type,
				       JUMP_LABEL_LONG_SIZE);
	text_poke_jump_label_sites++;
}

/* The queue is full: room made, then the site queued (a tail call). */
static noinline void jump_label_queue_grow(struct jump_entry *entry,
					   enum jump_label_type type)
{
	text_poke_make_room();
	arch_jump_label_transform_queue(entry, type);
}

void arch_jump_label_transform_queue(struct jump_entry *entry,
				     enum jump_label_type type)
{
	__arch_jump_label_transform_queue(entry, type);
}
