/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_MODULELOADER_H
#define _LINUX_MODULELOADER_H

/*
 * The loader's pure part: validation of a .ko, its layout into regions, the
 * copy, symbol values and relocations. It touches no kernel global and
 * calls only the functions declared at the end of this header, which its
 * environment supplies: kernel/module/main.c in the kernel,
 * tests/fuzz/module_fuzz.c on the host (the fuzzer builds kernel/module/
 * elf.c and arch/x86/kernel/module.c with this header and nothing else of
 * the kernel, hence the quoted includes and the host branch below).
 *
 * The image is never written: everything the loader changes (addresses,
 * symbol values) lives in struct load_info and in module memory.
 */
#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/compiler.h>
#else
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef int32_t s32;
typedef uint64_t u64;
typedef int64_t s64;
#define __printf(a, b) __attribute__((format(printf, a, b)))
#endif
#include "elf.h"
#include "module_mem.h"

/* No alignment above a page: regions start on page boundaries. */
#define MODULE_MAX_ALIGN 4096
/* No region above 16 MiB: the size of a NOBITS section is not in the file. */
#define MODULE_MAX_REGION (16U << 20)
/* Where the loader puts a module's struct module (in MOD_DATA). */
#define MODULE_STRUCT_ALIGN 64
#define MODULE_INFO_NAME_LEN 56
/*
 * A __versions entry (struct modversion_info of <linux/module.h>): the CRC
 * in a u64, then the symbol's name, NUL-terminated, in 56 bytes.
 */
#define MODVERSION_ENTRY_SIZE 64
#define MODVERSION_NAME_OFFSET 8

/*
 * The loader's own pseudo-region past the real ones: the module's per-CPU
 * section (.data..percpu). Its addr is the template address the
 * environment gave the section in the per-CPU reserve, its base where the
 * loader writes the initial contents (one CPU's copy); it is no module
 * memory, so loops over struct module's regions never see it.
 */
#define MOD_PERCPU MOD_MEM_NUM_TYPES
#define MOD_LOAD_NUM_TYPES (MOD_MEM_NUM_TYPES + 1)

/* Where one section goes: region type (-1: not loaded) and offset in it. */
struct load_section {
	int type;
	u32 offset;
};

struct load_info {
	/* In: the image and the name messages use until .modinfo is read. */
	const char *name;
	const void *image;
	size_t len;
	/* In: bytes to reserve in MOD_DATA for the struct module. */
	u32 this_module_size;

	/* module_elf_check(): pointers into the image, all bounds-checked. */
	const Elf64_Ehdr *hdr;
	const Elf64_Shdr *sechdrs;
	unsigned int nsec;
	const char *secstrings;
	unsigned int symindex, strindex, modinfo_index;
	const Elf64_Sym *syms;
	unsigned int nsyms;
	const char *strtab;
	u64 strtab_size;
	const char *modname; /* .modinfo name=, NUL-terminated */
	const char *vermagic; /* .modinfo vermagic=, or NULL */
	/* __versions (read from the file, not loaded): entries, or 0. */
	unsigned int versions_index, nversions;
	bool gpl_compatible;
	unsigned int init_sym, exit_sym; /* 0: none */
	unsigned int percpu_index; /* its .data..percpu, or 0 */

	/* module_layout(): sizes, and where each section and extra goes. */
	struct load_section *sec; /* nsec entries, module_elf_alloc()ed */
	u32 size[MOD_LOAD_NUM_TYPES];
	u32 mod_offset; /* struct module, in MOD_DATA */
	u32 ksym_offset, kstr_offset; /* kept symbols + strtab, MOD_RODATA */
	unsigned int nksyms;

	/*
	 * Set by the environment once regions exist: where the region will
	 * run (addr) and where the loader writes it (base). The same in the
	 * kernel; on the host the fuzzer runs at module-area addresses while
	 * writing into malloc()ed buffers.
	 */
	u64 addr[MOD_LOAD_NUM_TYPES];
	u8 *base[MOD_LOAD_NUM_TYPES];

	/* module_resolve_symbols(): each symbol's value, nsyms entries. */
	u64 *symval;
};

/* Validates everything before anything is used: 0 or -errno, after a message.
 */
int module_elf_check(struct load_info *info);
/* Assigns every SHF_ALLOC section a region and an offset; computes sizes. */
int module_layout(struct load_info *info);
/* Copies the sections into the regions (NOBITS ones stay zero). */
void module_copy_sections(const struct load_info *info);
/* Symbol values: defined ones from the layout, undefined via the resolver. */
int module_resolve_symbols(struct load_info *info);
/*
 * The value of symbol sym for relocation n of relsec: 0, or -ENOEXEC after
 * a message when the symbol lives in a section that is not loaded.
 */
int module_reloc_symbol(const struct load_info *info, unsigned int relsec,
			unsigned int n, u64 sym, u64 *value);
/* Applies every SHT_RELA section whose target is loaded. */
int module_apply_relocations(const struct load_info *info);
/* Copies the kept symbols (absolute values) and the string table. */
void module_copy_kallsyms(const struct load_info *info);
/* The runtime address of section i, or 0 when it is not loaded. */
u64 module_section_addr(const struct load_info *info, unsigned int i);
/* The index of the loaded section called name, or 0. */
unsigned int module_find_section(const struct load_info *info,
				 const char *name);
/*
 * Checks the module's export table in section i (struct kernel_symbol
 * entries, relocated): each name points into a loaded region and ends
 * there. Returns the number of entries, or -errno after a message.
 */
int module_check_exports(const struct load_info *info, unsigned int i);
/* The same for its __kcrctab (struct kernel_crc: the name first). */
int module_check_crcs(const struct load_info *info, unsigned int i);
/*
 * The CRC __versions gives for symbol name: true and *crc, or false when
 * the module lists no version for it.
 */
bool module_symbol_version(const struct load_info *info, const char *name,
			   u64 *crc);
/* Frees what module_layout() and module_resolve_symbols() allocated. */
void module_elf_release(struct load_info *info);

/* The section's name (valid once module_elf_check() got that far). */
static inline const char *module_secname(const struct load_info *info,
					 unsigned int i)
{
	return info->secstrings + info->sechdrs[i].sh_name;
}

/*
 * Arch hooks (arch/x86/kernel/module.c). reloc_width: bytes a relocation
 * type writes, 0 for NONE, -1 if unsupported. reloc_name: "R_X86_64_PC32",
 * or NULL for a number without a name. apply_relocate_add: applies section
 * relsec (already validated: offsets and symbol indexes in range).
 */
int arch_reloc_width(u32 type);
const char *arch_reloc_name(u32 type);
int apply_relocate_add(const struct load_info *info, unsigned int relsec);

/*
 * Supplied by the environment. module_elf_err: one line, prefixed with
 * "module NAME: " (NAME is info->modname once known, else info->name), a
 * newline added; module_elf_warn likewise at warning level. resolve: the
 * value of an undefined symbol, 0 or -errno (after its own message).
 */
void module_elf_err(const struct load_info *info, const char *fmt, ...)
	__printf(2, 3);
void module_elf_warn(const struct load_info *info, const char *fmt, ...)
	__printf(2, 3);
void *module_elf_alloc(size_t size); /* zeroed, or NULL */
void module_elf_free(void *p);
int module_elf_resolve(struct load_info *info, const char *name, bool weak,
		       u64 *value);

#endif /* _LINUX_MODULELOADER_H */
