// SPDX-License-Identifier: GPL-2.0
#include <linux/kernel.h>
#include <linux/uaccess.h>
#include <asm/extable.h>
#include <asm/processor.h>
#include <asm/traps.h>

extern const struct exception_table_entry __start___ex_table[];
extern const struct exception_table_entry __stop___ex_table[];

static unsigned long ex_insn(const struct exception_table_entry *e)
{
	return (unsigned long)&e->insn + e->insn;
}

static unsigned long ex_fixup(const struct exception_table_entry *e)
{
	return (unsigned long)&e->fixup + e->fixup;
}

/* The table is a few dozen entries at most: a linear search is enough. */
static const struct exception_table_entry *search_extable(unsigned long ip,
							  int type)
{
	const struct exception_table_entry *e;

	for (e = __start___ex_table; e < __stop___ex_table; e++)
		if (ex_insn(e) == ip && e->type == type)
			return e;
	return NULL;
}

/*
 * A fetch fault on the first byte of a called function: the return address
 * is on top of the stack, and the caller may have asked to survive this.
 */
static bool fixup_bad_call(struct pt_regs *regs, int trapnr, unsigned long err)
{
	const struct exception_table_entry *e;
	unsigned long ret;

	if (trapnr != X86_TRAP_PF || !(err & X86_PF_INSTR) ||
	    regs->ip != read_cr2())
		return false;
	if (copy_from_kernel_nofault(&ret, (void *)regs->sp, sizeof(ret)))
		return false;
	e = search_extable(ret, EX_TYPE_CALL);
	if (!e)
		return false;
	regs->sp += sizeof(ret);
	regs->ip = ex_fixup(e);
	return true;
}

bool fixup_exception(struct pt_regs *regs, int trapnr, unsigned long err)
{
	const struct exception_table_entry *e;

	e = search_extable(regs->ip, EX_TYPE_DEFAULT);
	if (e) {
		regs->ip = ex_fixup(e);
		return true;
	}
	return fixup_bad_call(regs, trapnr, err);
}
