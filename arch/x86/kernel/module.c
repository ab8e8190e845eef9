// SPDX-License-Identifier: GPL-2.0
/*
 * x86-64 relocations of modules (psABI: S = symbol value, A = addend,
 * P = the address of the relocated field). Modules run in the module area,
 * in the top 2 GiB like the kernel, and are built with -mcmodel=kernel, so
 * the types gcc emits for them are these:
 *
 *   R_X86_64_64     S + A       64 bits
 *   R_X86_64_32     S + A       32 bits, must zero-extend back to the value
 *   R_X86_64_32S    S + A       32 bits, must sign-extend back
 *   R_X86_64_PC32   S + A - P   32 bits, sign-extended
 *   R_X86_64_PLT32  S + A - P   as PC32: no PLT, the callee is in reach
 *   R_X86_64_PC64   S + A - P   64 bits
 *
 * Pure code, like kernel/module/elf.c: it builds on the host for the fuzzer.
 * The field must hold zero before it is written: RELA keeps the addend in
 * the entry, so anything else is a relocation applied twice or a corrupt
 * file.
 */
#ifdef __KERNEL__
#include <linux/string.h>
#else
#include <string.h>
#endif
#include "linux/moduleloader.h"

int arch_reloc_width(u32 type)
{
	switch (type) {
	case R_X86_64_NONE:
		return 0;
	case R_X86_64_32:
	case R_X86_64_32S:
	case R_X86_64_PC32:
	case R_X86_64_PLT32:
		return 4;
	case R_X86_64_64:
	case R_X86_64_PC64:
		return 8;
	default:
		return -1;
	}
}

const char *arch_reloc_name(u32 type)
{
	static const char *const names[] = {
		[R_X86_64_NONE] = "R_X86_64_NONE",
		[R_X86_64_64] = "R_X86_64_64",
		[R_X86_64_PC32] = "R_X86_64_PC32",
		[R_X86_64_GOT32] = "R_X86_64_GOT32",
		[R_X86_64_PLT32] = "R_X86_64_PLT32",
		[R_X86_64_COPY] = "R_X86_64_COPY",
		[R_X86_64_GLOB_DAT] = "R_X86_64_GLOB_DAT",
		[R_X86_64_JUMP_SLOT] = "R_X86_64_JUMP_SLOT",
		[R_X86_64_RELATIVE] = "R_X86_64_RELATIVE",
		[R_X86_64_GOTPCREL] = "R_X86_64_GOTPCREL",
		[R_X86_64_32] = "R_X86_64_32",
		[R_X86_64_32S] = "R_X86_64_32S",
		[R_X86_64_16] = "R_X86_64_16",
		[R_X86_64_PC16] = "R_X86_64_PC16",
		[R_X86_64_8] = "R_X86_64_8",
		[R_X86_64_PC8] = "R_X86_64_PC8",
		[R_X86_64_PC64] = "R_X86_64_PC64",
		[R_X86_64_GOTOFF64] = "R_X86_64_GOTOFF64",
		[R_X86_64_GOTPC32] = "R_X86_64_GOTPC32",
		[R_X86_64_SIZE32] = "R_X86_64_SIZE32",
		[R_X86_64_SIZE64] = "R_X86_64_SIZE64",
		[R_X86_64_GOTPCRELX] = "R_X86_64_GOTPCRELX",
		[R_X86_64_REX_GOTPCRELX] = "R_X86_64_REX_GOTPCRELX",
	};

	return type < sizeof(names) / sizeof(names[0]) ? names[type] : NULL;
}

/* S + A (- P), or -ENOEXEC after a message when it does not fit the field. */
static int reloc_value(const struct load_info *info, unsigned int relsec,
		       unsigned int n, u32 type, u64 sa, u64 p, u64 *val)
{
	u64 v = sa;
	bool fits = true;

	switch (type) {
	case R_X86_64_32:
		fits = v == (u32)v;
		break;
	case R_X86_64_32S:
		fits = (s64)v == (s32)v;
		break;
	case R_X86_64_PC32:
	case R_X86_64_PLT32:
		v = sa - p;
		fits = (s64)v == (s32)v;
		break;
	case R_X86_64_PC64:
		v = sa - p;
		break;
	}
	if (!fits) {
		module_elf_err(
			info,
			"relocation %u in %s: %s value 0x%llx does not fit", n,
			module_secname(info, relsec), arch_reloc_name(type),
			(unsigned long long)v);
		return -ENOEXEC;
	}
	*val = v;
	return 0;
}

static bool all_zero(const u8 *p, int len)
{
	while (len--)
		if (*p++)
			return false;
	return true;
}

static int apply_one(const struct load_info *info, unsigned int relsec,
		     unsigned int n, const Elf64_Rela *rel)
{
	const struct load_section *ts =
		&info->sec[info->sechdrs[relsec].sh_info];
	u32 type = ELF64_R_TYPE(rel->r_info);
	int width = arch_reloc_width(type), ret;
	u64 p, s, v;
	u8 *loc;

	if (width < 0) {
		module_elf_err(
			info,
			"relocation %u in %s: unsupported relocation %s (%u)",
			n, module_secname(info, relsec),
			arch_reloc_name(type) ?: "type", type);
		return -ENOEXEC;
	}
	/*
	 * Nothing to write (R_X86_64_NONE): the target section may be empty
	 * and have no memory at all, so no address is formed in it.
	 */
	if (!width)
		return 0;
	loc = info->base[ts->type] + ts->offset + rel->r_offset;
	p = info->addr[ts->type] + ts->offset + rel->r_offset;
	ret = module_reloc_symbol(info, relsec, n, ELF64_R_SYM(rel->r_info),
				  &s);
	if (!ret)
		ret = reloc_value(info, relsec, n, type, s + rel->r_addend, p,
				  &v);
	if (ret)
		return ret;
	if (!all_zero(loc, width)) {
		module_elf_err(
			info,
			"relocation %u in %s: %s target %s+0x%llx is not zero (applied twice, or a corrupt file)",
			n, module_secname(info, relsec), arch_reloc_name(type),
			module_secname(info, info->sechdrs[relsec].sh_info),
			(unsigned long long)rel->r_offset);
		return -ENOEXEC;
	}
	memcpy(loc, &v, width); /* little-endian: the low bytes first */
	return 0;
}

int apply_relocate_add(const struct load_info *info, unsigned int relsec)
{
	const Elf64_Shdr *rs = &info->sechdrs[relsec];
	const Elf64_Rela *rel =
		(const Elf64_Rela *)((const char *)info->image + rs->sh_offset);
	unsigned int n, nrel = rs->sh_size / sizeof(*rel);
	int ret;

	for (n = 0; n < nrel; n++) {
		ret = apply_one(info, relsec, n, &rel[n]);
		if (ret)
			return ret;
	}
	return 0;
}
