// SPDX-License-Identifier: GPL-2.0
/*
 * x86's static call sites: the instruction each target needs (the table in
 * <asm/static_call.h>), the check of a site's bytes, queueing into the
 * patch engine's batch, and a module's sites found in its relocations.
 * The hooks and their contract: <linux/static_call_arch.h>.
 */
#include <linux/kernel.h>
#include <linux/text-patching.h>
#include <linux/static_call.h>
#include <linux/static_call_arch.h>
#include <linux/string.h>
#include <asm/static_call.h>
#include <asm/text-patching.h>

static const u8 sc_nop5[] = { JUMP_LABEL_NOP5_BYTES };
static const u8 sc_ret5[] = { RET_INSN_OPCODE, INT3_INSN_OPCODE,
			      INT3_INSN_OPCODE, INT3_INSN_OPCODE,
			      INT3_INSN_OPCODE };

static void sc_gen_branch(u8 *insn, u8 op, void *addr, void *dest)
{
	s32 rel32 = (long)dest - (long)((unsigned long)addr +
					STATIC_CALL_INSN_SIZE);

	insn[0] = op;
	__builtin_memcpy(insn + 1, &rel32, sizeof(rel32));
}

void arch_static_call_insn(u8 *insn, void *addr, void *func, bool tail)
{
	BUILD_BUG_ON(sizeof(sc_nop5) != STATIC_CALL_INSN_SIZE);
	BUILD_BUG_ON(STATIC_CALL_INSN_SIZE > POKE_MAX_OPCODE_SIZE);
	if (!func) {
		__builtin_memcpy(insn, tail ? sc_ret5 : sc_nop5,
				 STATIC_CALL_INSN_SIZE);
	} else if (func == (void *)__static_call_return0 && !tail) {
		insn[0] = MOV_EAX_IMM_OPCODE;
		__builtin_memset(insn + 1, 0, 4);
	} else {
		sc_gen_branch(insn, tail ? JMP32_INSN_OPCODE : CALL_INSN_OPCODE,
			      addr, func);
	}
}

bool arch_static_call_reaches(void *addr, void *func)
{
	long disp = (long)func - (long)((unsigned long)addr +
					STATIC_CALL_INSN_SIZE);

	return !func || disp == (s32)disp;
}

int arch_static_call_check_site(void *addr, void *func, bool tail,
				const char *name)
{
	u8 want[STATIC_CALL_INSN_SIZE];

	arch_static_call_insn(want, addr, func, tail);
	if (text_insn_same(addr, want, STATIC_CALL_INSN_SIZE))
		return 0;
	pr_err("static_call: site %pS of call %s holds %*ph, expected %*ph: nothing written\n",
	       addr, name, STATIC_CALL_INSN_SIZE, addr, STATIC_CALL_INSN_SIZE,
	       want);
	return -EINVAL;
}

unsigned long text_poke_jump_label_sites, text_poke_static_call_sites;

/* The instruction is encoded straight into the queue's slot. */
void arch_static_call_queue(void *addr, void *func, bool tail)
{
	struct text_poke_loc *tp = text_poke_queue_reserve();

	text_poke_queue_commit(tp, addr, STATIC_CALL_INSN_SIZE);
	arch_static_call_insn(tp->opcode, addr, func, tail);
	text_poke_static_call_sites++;
}

/*
 * A call's or a jump's rel32 operand follows its one-byte opcode, and a
 * PC-relative relocation of it has the addend -4 (the operand's end).
 */
void *arch_static_call_reloc_site(u8 *field, size_t before, s64 addend,
				  bool *tail)
{
	if (!before || addend != -4)
		return NULL;
	if (field[-1] != CALL_INSN_OPCODE && field[-1] != JMP32_OPCODE)
		return NULL;
	*tail = field[-1] == JMP32_OPCODE;
	return field - 1;
}
