// SPDX-License-Identifier: GPL-2.0
/*
 * The module loader's pure part: everything it reads of a .ko, checked
 * before it is used, then the layout into regions, the copy, the symbol
 * values and the relocation walk. No kernel global is touched; the
 * environment's functions are declared in <linux/moduleloader.h>. The same
 * file builds on the host for the fuzzer (tests/fuzz/), so it includes the
 * header by a quoted path and uses only the C library's string functions.
 *
 * Invariant after module_elf_check() returns 0: the section header table,
 * every non-NOBITS section, the symbol table, its string table, the section
 * name table and every relocation section of a loaded target lie inside
 * the image at 8-byte aligned offsets where they hold structures; every
 * string table ends with a NUL; every name offset, section index, symbol
 * index and relocation offset (plus its width) is in range. Later steps
 * rely on it and check nothing of the file again.
 */
#ifdef __KERNEL__
#include <linux/string.h>
#else
#include <string.h>
#endif
#include "linux/moduleloader.h"

#define elf_err module_elf_err

static const char *const region_name[MOD_LOAD_NUM_TYPES] = {
	[MOD_TEXT] = "text",
	[MOD_RODATA] = "rodata",
	[MOD_RO_AFTER_INIT] = "ro_after_init",
	[MOD_DATA] = "data",
	[MOD_INIT_TEXT] = "init_text",
	[MOD_INIT_RODATA] = "init_rodata",
	[MOD_INIT_DATA] = "init_data",
	[MOD_PERCPU] = "percpu",
};

/* [off, off + size) inside [0, len), without overflow. */
static bool range_in(u64 off, u64 size, u64 len)
{
	return off <= len && size <= len - off;
}

static bool is_pow2(u64 x)
{
	return x && !(x & (x - 1));
}

static bool starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static const void *at(const struct load_info *info, u64 off)
{
	return (const char *)info->image + off;
}

static int check_ident(const struct load_info *info)
{
	const Elf64_Ehdr *h = info->image;
	const unsigned char *id = h->e_ident;

	if (memcmp(id, ELFMAG, SELFMAG)) {
		elf_err(info, "bad ELF magic %02x %02x %02x %02x", id[0], id[1],
			id[2], id[3]);
		return -ENOEXEC;
	}
	if (id[EI_CLASS] != ELFCLASS64) {
		elf_err(info, "not ELF64 (class %u)", id[EI_CLASS]);
		return -ENOEXEC;
	}
	if (id[EI_DATA] != ELFDATA2LSB) {
		elf_err(info, "not little-endian (data %u)", id[EI_DATA]);
		return -ENOEXEC;
	}
	if (id[EI_VERSION] != EV_CURRENT || h->e_version != EV_CURRENT) {
		elf_err(info, "ELF version %u/%u, expected 1", id[EI_VERSION],
			h->e_version);
		return -ENOEXEC;
	}
	return 0;
}

static int check_header(struct load_info *info)
{
	const Elf64_Ehdr *h = info->image;
	int ret;

	if (info->len < sizeof(*h)) {
		elf_err(info,
			"file of %zu bytes is shorter than an ELF header (%zu)",
			info->len, sizeof(*h));
		return -ENOEXEC;
	}
	if ((uintptr_t)info->image % 8) {
		elf_err(info, "image at %p is not 8-byte aligned", info->image);
		return -EINVAL;
	}
	ret = check_ident(info);
	if (ret)
		return ret;
	if (h->e_type != ET_REL) {
		elf_err(info, "not a relocatable object (e_type %u)",
			h->e_type);
		return -ENOEXEC;
	}
	if (h->e_machine != EM_X86_64) {
		elf_err(info, "not x86-64 (e_machine %u)", h->e_machine);
		return -ENOEXEC;
	}
	info->hdr = h;
	return 0;
}

/* The section header table: entry size, bounds, alignment. */
static int check_section_table(struct load_info *info)
{
	const Elf64_Ehdr *h = info->hdr;

	if (h->e_shentsize != sizeof(Elf64_Shdr)) {
		elf_err(info, "e_shentsize %u, expected %zu", h->e_shentsize,
			sizeof(Elf64_Shdr));
		return -ENOEXEC;
	}
	if (!h->e_shnum ||
	    !range_in(h->e_shoff, (u64)h->e_shnum * sizeof(Elf64_Shdr),
		      info->len)) {
		elf_err(info,
			"section header table (offset 0x%llx, %u entries) is not inside the file (0x%zx)",
			(unsigned long long)h->e_shoff, h->e_shnum, info->len);
		return -ENOEXEC;
	}
	if (h->e_shoff % 8) {
		elf_err(info,
			"section header table at offset 0x%llx is not 8-byte aligned",
			(unsigned long long)h->e_shoff);
		return -ENOEXEC;
	}
	info->sechdrs = at(info, h->e_shoff);
	info->nsec = h->e_shnum;
	return 0;
}

/* The section name table: a NUL-terminated string table in the file. */
static int check_shstrtab(struct load_info *info)
{
	const Elf64_Ehdr *h = info->hdr;
	const Elf64_Shdr *ss;

	if (h->e_shstrndx == SHN_UNDEF || h->e_shstrndx >= info->nsec) {
		elf_err(info, "e_shstrndx %u is not a section (%u sections)",
			h->e_shstrndx, info->nsec);
		return -ENOEXEC;
	}
	ss = &info->sechdrs[h->e_shstrndx];
	if (ss->sh_type != SHT_STRTAB || !ss->sh_size ||
	    !range_in(ss->sh_offset, ss->sh_size, info->len) ||
	    *(const char *)at(info, ss->sh_offset + ss->sh_size - 1)) {
		elf_err(info,
			"section %u (e_shstrndx) is not a NUL-terminated string table inside the file",
			h->e_shstrndx);
		return -ENOEXEC;
	}
	info->secstrings = at(info, ss->sh_offset);
	return 0;
}

/* Bounds, alignment and flags of section i, whose name is known valid. */
static int check_section_bounds(const struct load_info *info, unsigned int i)
{
	const Elf64_Shdr *s = &info->sechdrs[i];
	const char *name = module_secname(info, i);

	if (s->sh_type != SHT_NOBITS &&
	    !range_in(s->sh_offset, s->sh_size, info->len)) {
		elf_err(info,
			"section %u (%s) ends past the file (offset 0x%llx, size 0x%llx, file 0x%zx)",
			i, name, (unsigned long long)s->sh_offset,
			(unsigned long long)s->sh_size, info->len);
		return -ENOEXEC;
	}
	if (s->sh_addralign > 1 && !is_pow2(s->sh_addralign)) {
		elf_err(info,
			"section %u (%s): alignment 0x%llx is not a power of two",
			i, name, (unsigned long long)s->sh_addralign);
		return -ENOEXEC;
	}
	if ((s->sh_flags & SHF_ALLOC) && s->sh_addralign > MODULE_MAX_ALIGN) {
		elf_err(info, "section %u (%s): alignment 0x%llx is above 0x%x",
			i, name, (unsigned long long)s->sh_addralign,
			MODULE_MAX_ALIGN);
		return -ENOEXEC;
	}
	if ((s->sh_flags & (SHF_ALLOC | SHF_WRITE | SHF_EXECINSTR)) ==
	    (SHF_ALLOC | SHF_WRITE | SHF_EXECINSTR)) {
		elf_err(info, "section %u (%s) is writable and executable", i,
			name);
		return -ENOEXEC;
	}
	return 0;
}

/* What kind of section i is: types the loader refuses, string tables. */
static int check_section_type(const struct load_info *info, unsigned int i)
{
	const Elf64_Shdr *s = &info->sechdrs[i];
	const char *name = module_secname(info, i);

	switch (s->sh_type) {
	case SHT_REL:
		elf_err(info,
			"section %u (%s): SHT_REL relocations are not supported (SHT_RELA only)",
			i, name);
		return -ENOEXEC;
	case SHT_SYMTAB_SHNDX:
		elf_err(info,
			"section %u (%s): extended section indexes are not supported",
			i, name);
		return -ENOEXEC;
	case SHT_STRTAB:
		if (s->sh_size &&
		    *(const char *)at(info, s->sh_offset + s->sh_size - 1)) {
			elf_err(info,
				"section %u (%s): string table does not end with a NUL",
				i, name);
			return -ENOEXEC;
		}
		return 0;
	default:
		return 0;
	}
}

/*
 * Per-CPU data (DEFINE_PER_CPU() puts it in .data..percpu) is not module
 * data: each CPU reaches its own copy at the variable's address plus its
 * per-CPU offset, so the loader places it in the per-CPU reserve, never in
 * a region. One such section, writable data; Linux's variants
 * (.data..percpu..page_aligned and the like) have no macro here and are
 * refused rather than laid out as plain data.
 */
static int check_section_percpu(struct load_info *info, unsigned int i)
{
	const Elf64_Shdr *s = &info->sechdrs[i];
	const char *name = module_secname(info, i);

	if (!(s->sh_flags & SHF_ALLOC) || !starts_with(name, ".data..percpu"))
		return 0;
	if (strcmp(name, ".data..percpu")) {
		elf_err(info,
			"section %u (%s): per-CPU section variants are not supported in modules (only .data..percpu)",
			i, name);
		return -ENOEXEC;
	}
	if ((s->sh_flags & (SHF_WRITE | SHF_EXECINSTR)) != SHF_WRITE ||
	    (s->sh_type != SHT_PROGBITS && s->sh_type != SHT_NOBITS)) {
		elf_err(info,
			"section %u (%s): a per-CPU section must be writable data (type %u, flags 0x%llx)",
			i, name, s->sh_type, (unsigned long long)s->sh_flags);
		return -ENOEXEC;
	}
	if (info->percpu_index) {
		elf_err(info, "section %u (%s): a second per-CPU section (%u)",
			i, name, info->percpu_index);
		return -ENOEXEC;
	}
	info->percpu_index = i;
	return 0;
}

static int check_sections(struct load_info *info)
{
	u64 names = info->sechdrs[info->hdr->e_shstrndx].sh_size;
	unsigned int i, nsymtab = 0;
	int ret;

	for (i = 1; i < info->nsec; i++) {
		if (info->sechdrs[i].sh_name >= names) {
			elf_err(info,
				"section %u: name offset 0x%x is past the section name table (0x%llx)",
				i, info->sechdrs[i].sh_name,
				(unsigned long long)names);
			return -ENOEXEC;
		}
		ret = check_section_bounds(info, i);
		if (!ret)
			ret = check_section_type(info, i);
		if (!ret)
			ret = check_section_percpu(info, i);
		if (ret)
			return ret;
		if (info->sechdrs[i].sh_type == SHT_SYMTAB) {
			info->symindex = i;
			nsymtab++;
		}
	}
	if (nsymtab != 1) {
		elf_err(info, "%u symbol tables, expected exactly one",
			nsymtab);
		return -ENOEXEC;
	}
	return 0;
}

static int check_symtab(struct load_info *info)
{
	const Elf64_Shdr *s = &info->sechdrs[info->symindex];
	const Elf64_Shdr *str;

	if (s->sh_entsize != sizeof(Elf64_Sym) ||
	    s->sh_size % sizeof(Elf64_Sym) || s->sh_offset % 8 ||
	    s->sh_size / sizeof(Elf64_Sym) > 0xffffffffULL) {
		elf_err(info,
			"section %u (%s): symbol table of entsize %llu, size 0x%llx at offset 0x%llx: expected entries of %zu bytes, 8-byte aligned",
			info->symindex, module_secname(info, info->symindex),
			(unsigned long long)s->sh_entsize,
			(unsigned long long)s->sh_size,
			(unsigned long long)s->sh_offset, sizeof(Elf64_Sym));
		return -ENOEXEC;
	}
	if (!s->sh_link || s->sh_link >= info->nsec ||
	    info->sechdrs[s->sh_link].sh_type != SHT_STRTAB ||
	    !info->sechdrs[s->sh_link].sh_size) {
		elf_err(info, "symbol table's sh_link %u is not a string table",
			s->sh_link);
		return -ENOEXEC;
	}
	str = &info->sechdrs[s->sh_link];
	info->strindex = s->sh_link;
	info->strtab = at(info, str->sh_offset);
	info->strtab_size = str->sh_size;
	info->syms = at(info, s->sh_offset);
	info->nsyms = s->sh_size / sizeof(Elf64_Sym);
	return 0;
}

static int check_symbol(const struct load_info *info, unsigned int j)
{
	const Elf64_Sym *sym = &info->syms[j];
	const char *name = info->strtab + sym->st_name;
	const Elf64_Shdr *s;

	if (sym->st_shndx == SHN_UNDEF || sym->st_shndx == SHN_ABS)
		return 0;
	if (sym->st_shndx == SHN_COMMON) {
		elf_err(info,
			"symbol %s is common (SHN_COMMON): build with -fno-common",
			name);
		return -ENOEXEC;
	}
	if (sym->st_shndx >= info->nsec) {
		elf_err(info,
			"symbol %s: section index 0x%x is not a section (%u sections)",
			name, sym->st_shndx, info->nsec);
		return -ENOEXEC;
	}
	s = &info->sechdrs[sym->st_shndx];
	if (sym->st_value > s->sh_size) {
		elf_err(info,
			"symbol %s: value 0x%llx is past the end of section %u (%s, size 0x%llx)",
			name, (unsigned long long)sym->st_value, sym->st_shndx,
			module_secname(info, sym->st_shndx),
			(unsigned long long)s->sh_size);
		return -ENOEXEC;
	}
	return 0;
}

static int check_symbols(const struct load_info *info)
{
	unsigned int j;
	int ret;

	for (j = 1; j < info->nsyms; j++) {
		if (info->syms[j].st_name >= info->strtab_size) {
			elf_err(info,
				"symbol %u: name offset 0x%x is past the string table (0x%llx)",
				j, info->syms[j].st_name,
				(unsigned long long)info->strtab_size);
			return -ENOEXEC;
		}
		ret = check_symbol(info, j);
		if (ret)
			return ret;
	}
	return 0;
}

static void reloc_unsupported(const struct load_info *info, unsigned int relsec,
			      unsigned int n, u32 type)
{
	const char *rname = arch_reloc_name(type);

	if (rname)
		elf_err(info,
			"relocation %u in %s: unsupported relocation %s (%u)",
			n, module_secname(info, relsec), rname, type);
	else
		elf_err(info,
			"relocation %u in %s: unsupported relocation type %u",
			n, module_secname(info, relsec), type);
}

/* Every entry of relocation section i: symbol, type, offset + width. */
static int check_rela_entries(const struct load_info *info, unsigned int i)
{
	const Elf64_Shdr *rs = &info->sechdrs[i];
	const Elf64_Shdr *ts = &info->sechdrs[rs->sh_info];
	const Elf64_Rela *rel = at(info, rs->sh_offset);
	unsigned int n, nrel = rs->sh_size / sizeof(*rel);

	for (n = 0; n < nrel; n++) {
		u64 sym = ELF64_R_SYM(rel[n].r_info);
		u32 type = ELF64_R_TYPE(rel[n].r_info);
		int width = arch_reloc_width(type);

		if (sym >= info->nsyms) {
			elf_err(info,
				"relocation %u in %s: symbol index %llu is past the symbol table (%u symbols)",
				n, module_secname(info, i),
				(unsigned long long)sym, info->nsyms);
			return -ENOEXEC;
		}
		if (width < 0) {
			reloc_unsupported(info, i, n, type);
			return -ENOEXEC;
		}
		if (!range_in(rel[n].r_offset, width, ts->sh_size)) {
			elf_err(info,
				"relocation %u in %s: offset 0x%llx (+%d) is past the end of %s (0x%llx)",
				n, module_secname(info, i),
				(unsigned long long)rel[n].r_offset, width,
				module_secname(info, rs->sh_info),
				(unsigned long long)ts->sh_size);
			return -ENOEXEC;
		}
	}
	return 0;
}

static int check_rela(const struct load_info *info, unsigned int i)
{
	const Elf64_Shdr *rs = &info->sechdrs[i];
	const char *name = module_secname(info, i);

	if (rs->sh_entsize != sizeof(Elf64_Rela) ||
	    rs->sh_size % sizeof(Elf64_Rela) || rs->sh_offset % 8) {
		elf_err(info,
			"section %u (%s): entsize %llu, size 0x%llx, offset 0x%llx: expected 8-byte aligned entries of %zu bytes",
			i, name, (unsigned long long)rs->sh_entsize,
			(unsigned long long)rs->sh_size,
			(unsigned long long)rs->sh_offset, sizeof(Elf64_Rela));
		return -ENOEXEC;
	}
	if (rs->sh_link != info->symindex) {
		elf_err(info,
			"section %u (%s): sh_link %u is not the symbol table (%u)",
			i, name, rs->sh_link, info->symindex);
		return -ENOEXEC;
	}
	if (!rs->sh_info || rs->sh_info >= info->nsec) {
		elf_err(info,
			"section %u (%s): sh_info %u is not a section (%u sections)",
			i, name, rs->sh_info, info->nsec);
		return -ENOEXEC;
	}
	/* Relocations of what is not loaded (debug info) are never applied. */
	if (!(info->sechdrs[rs->sh_info].sh_flags & SHF_ALLOC))
		return 0;
	if (info->sechdrs[rs->sh_info].sh_type == SHT_NOBITS) {
		elf_err(info,
			"section %u (%s) relocates section %u (%s), which has no bytes (SHT_NOBITS)",
			i, name, rs->sh_info,
			module_secname(info, rs->sh_info));
		return -ENOEXEC;
	}
	return check_rela_entries(info, i);
}

static int check_relas(const struct load_info *info)
{
	unsigned int i;
	int ret;

	for (i = 1; i < info->nsec; i++) {
		if (info->sechdrs[i].sh_type != SHT_RELA)
			continue;
		ret = check_rela(info, i);
		if (ret)
			return ret;
	}
	return 0;
}

/* Linux's list of the licenses that may use EXPORT_SYMBOL_GPL symbols. */
static bool license_is_gpl_compatible(const char *license)
{
	static const char *const gpl[] = {
		"GPL",		"GPL v2",	"GPL and additional rights",
		"Dual BSD/GPL", "Dual MIT/GPL", "Dual MPL/GPL",
	};
	unsigned int i;

	for (i = 0; i < sizeof(gpl) / sizeof(gpl[0]); i++)
		if (!strcmp(license, gpl[i]))
			return true;
	return false;
}

static unsigned int find_section_any(const struct load_info *info,
				     const char *name)
{
	unsigned int i;

	for (i = 1; i < info->nsec; i++)
		if (info->sechdrs[i].sh_type != SHT_NOBITS &&
		    !strcmp(module_secname(info, i), name))
			return i;
	return 0;
}

/* .modinfo: NUL-terminated "key=value" strings; name= and license=. */
static int parse_modinfo(struct load_info *info, const char **license)
{
	unsigned int i = find_section_any(info, ".modinfo");
	const Elf64_Shdr *s = &info->sechdrs[i];
	const char *p, *end, *name = NULL;

	if (!i || !s->sh_size ||
	    *(const char *)at(info, s->sh_offset + s->sh_size - 1)) {
		elf_err(info, i ? ".modinfo does not end with a NUL" :
				  "no .modinfo section");
		return -ENOEXEC;
	}
	info->modinfo_index = i;
	p = at(info, s->sh_offset);
	end = p + s->sh_size;
	for (; p < end; p += strlen(p) + 1) {
		if (starts_with(p, "name="))
			name = p + 5;
		else if (starts_with(p, "license="))
			*license = p + 8;
		else if (starts_with(p, "vermagic="))
			info->vermagic = p + 9;
	}
	if (!name || !*name || strlen(name) >= MODULE_INFO_NAME_LEN) {
		elf_err(info,
			"name= in .modinfo is missing, empty or longer than %u characters",
			MODULE_INFO_NAME_LEN - 1);
		return -ENOEXEC;
	}
	if (info->name && strcmp(info->name, name)) {
		elf_err(info, ".modinfo says name=%s", name);
		return -EINVAL;
	}
	info->modname = name;
	return 0;
}

/*
 * __versions, if there: whole entries, each name NUL-terminated in its
 * field. Read from the file by module_symbol_version(), never loaded.
 */
static int check_versions(struct load_info *info)
{
	unsigned int i = find_section_any(info, "__versions"), n;
	const Elf64_Shdr *s = &info->sechdrs[i];
	const char *e;

	if (!i)
		return 0;
	if (s->sh_type == SHT_NOBITS || s->sh_size % MODVERSION_ENTRY_SIZE) {
		elf_err(info,
			"__versions of 0x%llx bytes is not a whole number of entries (%u bytes) in the file",
			(unsigned long long)s->sh_size, MODVERSION_ENTRY_SIZE);
		return -ENOEXEC;
	}
	for (n = 0; n < s->sh_size / MODVERSION_ENTRY_SIZE; n++) {
		e = at(info, s->sh_offset + n * MODVERSION_ENTRY_SIZE);
		if (strnlen(e + MODVERSION_NAME_OFFSET,
			    MODVERSION_ENTRY_SIZE - MODVERSION_NAME_OFFSET) ==
		    MODVERSION_ENTRY_SIZE - MODVERSION_NAME_OFFSET) {
			elf_err(info,
				"__versions entry %u: name not terminated", n);
			return -ENOEXEC;
		}
	}
	info->versions_index = i;
	info->nversions = n;
	return 0;
}

bool module_symbol_version(const struct load_info *info, const char *name,
			   u64 *crc)
{
	const Elf64_Shdr *s = &info->sechdrs[info->versions_index];
	const char *e;
	unsigned int n;

	for (n = 0; n < info->nversions; n++) {
		e = at(info, s->sh_offset + n * MODVERSION_ENTRY_SIZE);
		if (!strcmp(e + MODVERSION_NAME_OFFSET, name)) {
			memcpy(crc, e, sizeof(*crc));
			return true;
		}
	}
	return false;
}

static int check_modinfo(struct load_info *info)
{
	const char *license = NULL;
	int ret = parse_modinfo(info, &license);

	if (ret)
		return ret;
	if (!license)
		module_elf_warn(info,
				"no license, taken as not GPL-compatible");
	info->gpl_compatible = license && license_is_gpl_compatible(license);
	return check_versions(info);
}

/* The defined global symbol called name, or 0. */
static unsigned int find_global(const struct load_info *info, const char *name)
{
	unsigned int j;

	for (j = 1; j < info->nsyms; j++) {
		const Elf64_Sym *sym = &info->syms[j];

		if (ELF64_ST_BIND(sym->st_info) != STB_LOCAL &&
		    sym->st_shndx != SHN_UNDEF &&
		    !strcmp(info->strtab + sym->st_name, name))
			return j;
	}
	return 0;
}

/* init_module and cleanup_module, if there, must be functions in text. */
static int check_entry(const struct load_info *info, const char *name,
		       unsigned int *index)
{
	unsigned int j = find_global(info, name);
	const Elf64_Sym *sym = &info->syms[j];
	u64 flags;

	*index = j;
	if (!j)
		return 0;
	flags = sym->st_shndx < info->nsec ?
			info->sechdrs[sym->st_shndx].sh_flags :
			0;
	if (ELF64_ST_TYPE(sym->st_info) != STT_FUNC ||
	    (flags & (SHF_ALLOC | SHF_EXECINSTR)) !=
		    (SHF_ALLOC | SHF_EXECINSTR)) {
		elf_err(info, "%s is not a function in a text section", name);
		return -ENOEXEC;
	}
	return 0;
}

int module_elf_check(struct load_info *info)
{
	int ret = check_header(info);

	if (!ret)
		ret = check_section_table(info);
	if (!ret)
		ret = check_shstrtab(info);
	if (!ret)
		ret = check_sections(info);
	if (!ret)
		ret = check_symtab(info);
	if (!ret)
		ret = check_symbols(info);
	if (!ret)
		ret = check_relas(info);
	if (!ret)
		ret = check_modinfo(info);
	if (!ret)
		ret = check_entry(info, "init_module", &info->init_sym);
	if (!ret)
		ret = check_entry(info, "cleanup_module", &info->exit_sym);
	return ret;
}

/* The region of section i, or -1 for a section that is not loaded. */
static int section_region(const struct load_info *info, unsigned int i)
{
	const Elf64_Shdr *s = &info->sechdrs[i];
	const char *name = module_secname(info, i);

	/* .modinfo may carry SHF_ALLOC; it is read from the file, not run. */
	if (!(s->sh_flags & SHF_ALLOC) || i == info->modinfo_index ||
	    (info->versions_index && i == info->versions_index))
		return -1;
	if (i == info->percpu_index)
		return MOD_PERCPU;
	if (s->sh_flags & SHF_EXECINSTR)
		return starts_with(name, ".init.text") ? MOD_INIT_TEXT :
							 MOD_TEXT;
	/* Sorted by __jump_label_module_add(), then sealed with the rest. */
	if (!strcmp(name, ".data..ro_after_init") ||
	    !strcmp(name, "__jump_table"))
		return MOD_RO_AFTER_INIT;
	if (s->sh_flags & SHF_WRITE)
		return starts_with(name, ".init.data") ? MOD_INIT_DATA :
							 MOD_DATA;
	return starts_with(name, ".init.rodata") ? MOD_INIT_RODATA : MOD_RODATA;
}

/* Room for size bytes aligned to align at the end of region type. */
static int reserve(struct load_info *info, int type, u64 size, u64 align,
		   const char *what, u32 *offset)
{
	u64 off = info->size[type];

	if (align > 1)
		off = (off + align - 1) & ~(align - 1);
	if (size > MODULE_MAX_REGION || off + size > MODULE_MAX_REGION) {
		elf_err(info,
			"%s of 0x%llx bytes makes region %s larger than 0x%x bytes",
			what, (unsigned long long)size, region_name[type],
			MODULE_MAX_REGION);
		return -E2BIG;
	}
	*offset = off;
	info->size[type] = off + size;
	return 0;
}

/* Symbols %pS can name: functions and objects of loaded sections. */
static bool keep_symbol(const struct load_info *info, const Elf64_Sym *sym)
{
	unsigned int type = ELF64_ST_TYPE(sym->st_info);

	if (type != STT_FUNC && type != STT_OBJECT && type != STT_NOTYPE)
		return false;
	return sym->st_name && sym->st_shndx != SHN_UNDEF &&
	       sym->st_shndx < info->nsec && info->sec[sym->st_shndx].type >= 0;
}

static int layout_extras(struct load_info *info)
{
	unsigned int j;
	int ret;

	ret = reserve(info, MOD_DATA, info->this_module_size,
		      MODULE_STRUCT_ALIGN, "struct module", &info->mod_offset);
	for (j = 1; j < info->nsyms; j++)
		info->nksyms += keep_symbol(info, &info->syms[j]);
	if (!ret)
		ret = reserve(info, MOD_RODATA,
			      (u64)info->nksyms * sizeof(Elf64_Sym), 8,
			      "symbol table", &info->ksym_offset);
	if (!ret)
		ret = reserve(info, MOD_RODATA, info->strtab_size, 1,
			      "string table", &info->kstr_offset);
	return ret;
}

int module_layout(struct load_info *info)
{
	unsigned int i;
	int ret;

	info->sec = module_elf_alloc(info->nsec * sizeof(*info->sec));
	if (!info->sec)
		return -ENOMEM;
	info->sec[0].type = -1;
	for (i = 1; i < info->nsec; i++) {
		const Elf64_Shdr *s = &info->sechdrs[i];
		int type = section_region(info, i);

		info->sec[i].type = type;
		if (type < 0)
			continue;
		ret = reserve(info, type, s->sh_size, s->sh_addralign,
			      module_secname(info, i), &info->sec[i].offset);
		if (ret)
			return ret;
	}
	return layout_extras(info);
}

void module_copy_sections(const struct load_info *info)
{
	unsigned int i;

	for (i = 1; i < info->nsec; i++) {
		const Elf64_Shdr *s = &info->sechdrs[i];
		const struct load_section *ls = &info->sec[i];

		if (ls->type < 0 || s->sh_type == SHT_NOBITS || !s->sh_size)
			continue;
		memcpy(info->base[ls->type] + ls->offset,
		       at(info, s->sh_offset), s->sh_size);
	}
}

u64 module_section_addr(const struct load_info *info, unsigned int i)
{
	const struct load_section *ls = &info->sec[i];

	return ls->type < 0 ? 0 : info->addr[ls->type] + ls->offset;
}

unsigned int module_find_section(const struct load_info *info, const char *name)
{
	unsigned int i;

	for (i = 1; i < info->nsec; i++)
		if (info->sec[i].type >= 0 &&
		    !strcmp(module_secname(info, i), name))
			return i;
	return 0;
}

static int resolve_symbol(struct load_info *info, unsigned int j)
{
	const Elf64_Sym *sym = &info->syms[j];

	switch (sym->st_shndx) {
	case SHN_UNDEF:
		if (!sym->st_name)
			return 0;
		return module_elf_resolve(info, info->strtab + sym->st_name,
					  ELF64_ST_BIND(sym->st_info) ==
						  STB_WEAK,
					  &info->symval[j]);
	case SHN_ABS:
		info->symval[j] = sym->st_value;
		return 0;
	default:
		/* 0 for symbols of sections that are not loaded: never used. */
		if (info->sec[sym->st_shndx].type >= 0)
			info->symval[j] =
				module_section_addr(info, sym->st_shndx) +
				sym->st_value;
		return 0;
	}
}

int module_resolve_symbols(struct load_info *info)
{
	unsigned int j;
	int ret;

	info->symval = module_elf_alloc((info->nsyms + 1) * sizeof(u64));
	if (!info->symval)
		return -ENOMEM;
	for (j = 1; j < info->nsyms; j++) {
		ret = resolve_symbol(info, j);
		if (ret)
			return ret;
	}
	return 0;
}

int module_reloc_symbol(const struct load_info *info, unsigned int relsec,
			unsigned int n, u64 sym, u64 *value)
{
	const Elf64_Sym *s = &info->syms[sym];

	if (sym && s->st_shndx != SHN_UNDEF && s->st_shndx < SHN_LORESERVE &&
	    info->sec[s->st_shndx].type < 0) {
		elf_err(info,
			"relocation %u in %s: symbol %s is in section %u (%s), which is not loaded",
			n, module_secname(info, relsec),
			info->strtab + s->st_name, s->st_shndx,
			module_secname(info, s->st_shndx));
		return -ENOEXEC;
	}
	*value = info->symval[sym];
	return 0;
}

int module_apply_relocations(const struct load_info *info)
{
	unsigned int i;
	int ret;

	for (i = 1; i < info->nsec; i++) {
		const Elf64_Shdr *rs = &info->sechdrs[i];

		if (rs->sh_type != SHT_RELA || info->sec[rs->sh_info].type < 0)
			continue;
		ret = apply_relocate_add(info, i);
		if (ret)
			return ret;
	}
	return 0;
}

void module_copy_kallsyms(const struct load_info *info)
{
	Elf64_Sym *dst =
		(Elf64_Sym *)(info->base[MOD_RODATA] + info->ksym_offset);
	unsigned int j;

	for (j = 1; j < info->nsyms; j++) {
		if (!keep_symbol(info, &info->syms[j]))
			continue;
		*dst = info->syms[j];
		dst->st_value = info->symval[j];
		dst++;
	}
	memcpy(info->base[MOD_RODATA] + info->kstr_offset, info->strtab,
	       info->strtab_size);
}

/* The region holding runtime address a (and how far into it), or -1. */
static int region_of(const struct load_info *info, u64 a, u64 *off)
{
	int t;

	for (t = 0; t < MOD_MEM_NUM_TYPES; t++) {
		if (info->size[t] && a - info->addr[t] < info->size[t]) {
			*off = a - info->addr[t];
			return t;
		}
	}
	return -1;
}

/*
 * A table of 16-byte entries in section i whose word w (0 or 1) points at
 * a name: each name a string inside a loaded region. The entry count, or
 * -ENOEXEC after a message.
 */
static int check_name_table(const struct load_info *info, unsigned int i,
			    unsigned int w)
{
	const Elf64_Shdr *s = &info->sechdrs[i];
	const u8 *p;
	u64 n, e[2], off;
	int t;

	if (s->sh_size % sizeof(e) || s->sh_size / sizeof(e) > 0x7fffffff) {
		elf_err(info,
			"section %u (%s): size 0x%llx is not a whole number of exports (%zu bytes)",
			i, module_secname(info, i),
			(unsigned long long)s->sh_size, sizeof(e));
		return -ENOEXEC;
	}
	/* An empty table may sit in a region that has no memory at all. */
	if (!s->sh_size)
		return 0;
	p = info->base[info->sec[i].type] + info->sec[i].offset;
	for (n = 0; n < s->sh_size / sizeof(e); n++) {
		memcpy(e, p + n * sizeof(e), sizeof(e));
		t = region_of(info, e[w], &off);
		if (t < 0 ||
		    strnlen((const char *)info->base[t] + off,
			    info->size[t] - off) == info->size[t] - off) {
			elf_err(info,
				"export %llu in %s: its name (0x%llx) is not a string in the module",
				(unsigned long long)n, module_secname(info, i),
				(unsigned long long)e[w]);
			return -ENOEXEC;
		}
	}
	return (int)n;
}

int module_check_exports(const struct load_info *info, unsigned int i)
{
	return check_name_table(info, i, 1);
}

int module_check_crcs(const struct load_info *info, unsigned int i)
{
	return check_name_table(info, i, 0);
}

void module_elf_release(struct load_info *info)
{
	module_elf_free(info->sec);
	module_elf_free(info->symval);
	info->sec = NULL;
	info->symval = NULL;
}
