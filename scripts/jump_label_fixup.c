// SPDX-License-Identifier: GPL-2.0
/*
 * jump_label_fixup VMLINUX
 * jump_label_fixup --list VMLINUX
 *
 * Runs on the linked kernel and edits it in place, in three steps:
 *
 * 1. Puts every static branch site in its initial state. The compiler
 *    emits each site as "1: jmp l_yes" (jmp8 EB rel8 or jmp32 E9 rel32,
 *    whichever reaches) plus a __jump_table entry: three s32 offsets, each
 *    relative to its own field, giving the site, the jump target and the
 *    key (bit 0: branch, bit 1: init, 0 in the image). The kernel's rule is
 *
 *	JMP  iff  (key->enabled > 0) XOR branch
 *
 *    with enabled read from the image (0 for a key in .bss). Sites whose
 *    rule says NOP become the NOP of the same length (see
 *    <asm/jump_label_insn.h> for the bytes), so the kernel boots with every
 *    site right and patches nothing until a key changes.
 *
 * 2. Sorts the table by (key address, site address), compared as unsigned
 *    64-bit absolute addresses, which is the order jump_label_init() puts
 *    it in: each key's sites are then one run of entries from the start.
 *    An entry moved from slot i to slot j gets its three offsets rewritten
 *    so they still point at the same addresses; the key's flag bits stay.
 *
 * 3. Sorts the kernel's key definitions (__static_keys) by key address,
 *    which the module loader searches; boot then only checks the order.
 *
 * Every entry is checked first (site and target in executable sections, key
 * in an allocated data section, the site a jmp that lands on the target or
 * already the right NOP, the moved offsets still fit in 32 bits); nothing
 * is written unless all entries pass. A second run finds nothing to change
 * and does not write the file at all, so the tool is idempotent.
 *
 * The table is the section named __jump_table or, if the linker script
 * folds it into another output section, the bytes between the symbols
 * __start___jump_table and __stop___jump_table. An image with neither
 * (stripped, or not a kernel) is an error naming what is missing, not an
 * empty table; equal start and stop symbols are an empty table.
 *
 * This tool is the host's one reader and writer of the entry format and
 * the one statement of the table's order (cmp_entry(); the kernel's is
 * jump_entry_order() in <linux/jump_label_table.h>): the Python tools
 * (scripts/check_jump_table.py, the benchmarks) read the table through
 * --list, which changes nothing and prints it (see list()).
 *
 * The ELF file goes through libelf, as in objtool. With ELF_F_LAYOUT set,
 * elf_update() keeps every offset and writes back only the section data we
 * marked dirty. The image is ELF64 little-endian x86-64.
 */
#include <asm/jump_label_insn.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PROG "jump_label_fixup"
#define TABLE_NAME "__jump_table"
#define ENTRY_SIZE 12
#define KEY_FLAGS 3
#define MAX_ERRORS 50

static const unsigned char nop2[] = { JUMP_LABEL_NOP2_BYTES };
static const unsigned char nop5[] = { JUMP_LABEL_NOP5_BYTES };

_Static_assert(sizeof(nop2) == JUMP_LABEL_SHORT_SIZE, "nop2 size");
_Static_assert(sizeof(nop5) == JUMP_LABEL_LONG_SIZE, "nop5 size");

struct image {
	const char *path;
	int fd;
	Elf *elf;
	size_t shstrndx;
	unsigned long errors;
	int list; /* --list: read only, print the entries */
};

/* A section with its header; data is loaded on demand. */
struct section {
	Elf_Scn *scn;
	GElf_Shdr sh;
	Elf_Data *data;
};

/* Where the table lives: its address, entry count and bytes in memory. */
struct table {
	struct section sec;
	GElf_Addr addr;
	size_t n;
	unsigned char *buf;
};

/* One entry decoded to absolute addresses. */
struct entry {
	unsigned long idx; /* its slot in the image as linked */
	GElf_Addr code;
	GElf_Addr target;
	GElf_Addr key;
	unsigned int flags; /* the key field's low bits */
	int32_t enabled;
	int jump; /* the rule: 1 = JMP, 0 = NOP */
};

/* What the bytes at a site decode to. */
struct insn {
	int len; /* 2 or 5; 0 if not a jmp or NOP we know */
	int is_jmp;
	GElf_Addr dest; /* for a jmp */
};

struct result {
	unsigned long entries;
	unsigned long keys;
	unsigned long shorts;
	unsigned long longs;
	unsigned long rewritten;
	unsigned long moved;
	unsigned long key_defs; /* __static_keys entries, sorted */
	int dirty; /* something must be written back */
};

static void error(struct image *im, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void error(struct image *im, const char *fmt, ...)
{
	va_list ap;

	if (++im->errors > MAX_ERRORS)
		return;
	fprintf(stderr, PROG ": %s: ", im->path);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void elf_error(struct image *im, const char *what)
{
	error(im, "%s: %s", what, elf_errmsg(-1));
}

/* gcc converts out-of-range values to signed types modulo 2^N. */
static int32_t get_s32(const unsigned char *p)
{
	return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 |
			 (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
}

static void put_s32(unsigned char *p, int32_t v)
{
	uint32_t u = (uint32_t)v;

	p[0] = u;
	p[1] = u >> 8;
	p[2] = u >> 16;
	p[3] = u >> 24;
}

static const char *ehdr_problem(Elf *elf)
{
	GElf_Ehdr eh;
	size_t shnum;

	if (elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh))
		return "not an ELF file";
	if (eh.e_ident[EI_CLASS] != ELFCLASS64)
		return "not ELF64";
	if (eh.e_ident[EI_DATA] != ELFDATA2LSB)
		return "not little-endian";
	if (eh.e_machine != EM_X86_64)
		return "not x86-64";
	if (eh.e_type != ET_EXEC)
		return "not an executable (e_type is not ET_EXEC)";
	if (elf_getshdrnum(elf, &shnum) || shnum < 2)
		return "no section headers";
	return NULL;
}

static int open_image(struct image *im)
{
	const char *why;
	struct stat st;

	if (elf_version(EV_CURRENT) == EV_NONE) {
		elf_error(im, "libelf is unusable");
		return -1;
	}
	if (stat(im->path, &st)) {
		error(im, "%s", strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		error(im, "%s",
		      S_ISDIR(st.st_mode) ?
			      "is a directory, not a kernel image" :
			      "is not a regular file");
		return -1;
	}
	im->fd = open(im->path, im->list ? O_RDONLY : O_RDWR);
	if (im->fd < 0) {
		error(im, "cannot open for writing: %s", strerror(errno));
		return -1;
	}
	im->elf = elf_begin(im->fd, im->list ? ELF_C_READ : ELF_C_RDWR, NULL);
	if (!im->elf) {
		elf_error(im, "cannot read");
		return -1;
	}
	why = ehdr_problem(im->elf);
	if (why) {
		error(im, "%s", why);
		return -1;
	}
	if (elf_getshdrstrndx(im->elf, &im->shstrndx)) {
		elf_error(im, "no section header string table");
		return -1;
	}
	/* Keep the linker's layout: write back changed bytes only. */
	if (!im->list)
		elf_flagelf(im->elf, ELF_C_SET, ELF_F_LAYOUT);
	return 0;
}

/* Steps through the sections after @s (from the first if s->scn is NULL). */
static int next_section(struct image *im, struct section *s)
{
	s->scn = elf_nextscn(im->elf, s->scn);
	s->data = NULL;
	if (!s->scn)
		return 0;
	if (!gelf_getshdr(s->scn, &s->sh)) {
		elf_error(im, "cannot read a section header");
		return 0;
	}
	return 1;
}

static const char *section_name(struct image *im, const struct section *s)
{
	const char *name = elf_strptr(im->elf, im->shstrndx, s->sh.sh_name);

	return name ? name : "";
}

/*
 * Finds the section holding [addr, addr + len) among those with all the
 * flags in @set and none of those in @clear; 0 if there is none.
 */
static int find_section(struct image *im, GElf_Addr addr, uint64_t len,
			uint64_t set, uint64_t clear, struct section *s)
{
	memset(s, 0, sizeof(*s));
	while (next_section(im, s)) {
		if ((s->sh.sh_flags & (set | clear)) != set)
			continue;
		if (addr < s->sh.sh_addr ||
		    addr - s->sh.sh_addr >= s->sh.sh_size ||
		    len > s->sh.sh_size - (addr - s->sh.sh_addr))
			continue;
		return 1;
	}
	return 0;
}

static int find_by_name(struct image *im, const char *name, struct section *s)
{
	memset(s, 0, sizeof(*s));
	while (next_section(im, s))
		if (!strcmp(section_name(im, s), name))
			return 1;
	return 0;
}

/*
 * The bytes [addr, addr + len) of a PROGBITS section as libelf holds them,
 * where edits are written back from; NULL, with an error, if unreadable.
 */
static unsigned char *section_bytes(struct image *im, struct section *s,
				    GElf_Addr addr, uint64_t len)
{
	uint64_t off = addr - s->sh.sh_addr;

	if (!s->data)
		s->data = elf_getdata(s->scn, NULL);
	if (!s->data || !s->data->d_buf) {
		error(im, "cannot read section %s: %s", section_name(im, s),
		      s->data ? "no data" : elf_errmsg(-1));
		return NULL;
	}
	if (off > s->data->d_size || len > s->data->d_size - off) {
		error(im,
		      "section %s: 0x%" PRIx64 "+%" PRIu64 " is outside "
		      "its data",
		      section_name(im, s), addr, len);
		return NULL;
	}
	return (unsigned char *)s->data->d_buf + off;
}

/*
 * The symbol table and its string table, checked: 0 if the image has no
 * .symtab (stripped), -1 with an error if it is unusable.
 */
static int open_symtab(struct image *im, struct section *s)
{
	size_t shnum;
	Elf_Scn *str;
	GElf_Shdr strh;

	if (!find_by_name(im, ".symtab", s))
		return 0;
	if (s->sh.sh_type != SHT_SYMTAB ||
	    s->sh.sh_entsize != sizeof(Elf64_Sym)) {
		error(im,
		      ".symtab is not an ELF64 symbol table (type %u, "
		      "entry size %" PRIu64 ")",
		      s->sh.sh_type, (uint64_t)s->sh.sh_entsize);
		return -1;
	}
	if (elf_getshdrnum(im->elf, &shnum))
		shnum = 0;
	str = s->sh.sh_link && s->sh.sh_link < shnum ?
		      elf_getscn(im->elf, s->sh.sh_link) :
		      NULL;
	if (!str || !gelf_getshdr(str, &strh) || strh.sh_type != SHT_STRTAB) {
		error(im,
		      ".symtab: sh_link %u is not a string table (%zu "
		      "sections)",
		      s->sh.sh_link, shnum);
		return -1;
	}
	s->data = elf_getdata(s->scn, NULL);
	if (!s->data || s->data->d_size != s->sh.sh_size) {
		elf_error(im, "cannot read .symtab");
		return -1;
	}
	return 1;
}

/*
 * Looks up each of @names (NULL-terminated) in the checked .symtab @s and
 * stores its value; returns the mask of those found, or -1 on a bad symbol.
 */
static long lookup_symbols(struct image *im, struct section *s,
			   const char *const *names, GElf_Addr *values)
{
	unsigned int found = 0, all, n, j;
	const char *name;
	GElf_Sym sym;
	size_t i;

	for (n = 0; names[n]; n++)
		;
	all = (1u << n) - 1;
	for (i = 0; i < s->sh.sh_size / s->sh.sh_entsize && found != all; i++) {
		if (!gelf_getsym(s->data, i, &sym)) {
			elf_error(im, "cannot read a symbol of .symtab");
			return -1;
		}
		name = elf_strptr(im->elf, s->sh.sh_link, sym.st_name);
		for (j = 0; name && j < n; j++) {
			if (!(found & 1u << j) && !strcmp(name, names[j])) {
				values[j] = sym.st_value;
				found |= 1u << j;
			}
		}
	}
	return found;
}

/* lookup_symbols(), with one error naming those that are missing. */
static int find_symbols(struct image *im, struct section *s,
			const char *const *names, GElf_Addr *values)
{
	long found = lookup_symbols(im, s, names, values);
	char missing[128] = "";
	unsigned int j;

	if (found < 0)
		return -1;
	for (j = 0; names[j]; j++)
		if (!(found & 1u << j))
			snprintf(missing + strlen(missing),
				 sizeof(missing) - strlen(missing), "%s%s",
				 missing[0] ? ", " : "", names[j]);
	if (!missing[0])
		return 0;
	error(im,
	      "no " TABLE_NAME " section, and .symtab lacks %s: cannot "
	      "locate the jump table",
	      missing);
	return -1;
}

/* No __jump_table section: the table between its start and stop symbols. */
static int table_from_symbols(struct image *im, struct table *t, uint64_t *size)
{
	static const char *const names[] = { "__start___jump_table",
					     "__stop___jump_table", NULL };
	GElf_Addr value[2];
	struct section symtab;
	int ret;

	ret = open_symtab(im, &symtab);
	if (!ret)
		error(im, "no " TABLE_NAME " section and no .symtab (a "
			  "stripped image?): cannot locate the jump table "
			  "(__start___jump_table, __stop___jump_table)");
	if (ret <= 0 || find_symbols(im, &symtab, names, value))
		return -1;
	if (value[1] < value[0]) {
		error(im, "__stop___jump_table lies before "
			  "__start___jump_table");
		return -1;
	}
	if (value[1] == value[0])
		return 0;
	if (!find_section(im, value[0], value[1] - value[0], SHF_ALLOC, 0,
			  &t->sec) ||
	    t->sec.sh.sh_type != SHT_PROGBITS) {
		error(im, "__start/__stop___jump_table do not span "
			  "loaded data");
		return -1;
	}
	t->addr = value[0];
	*size = value[1] - value[0];
	return 0;
}

/* Locates the table and its bytes; an empty table has n == 0. */
static int find_table(struct image *im, struct table *t)
{
	uint64_t size = 0;

	memset(t, 0, sizeof(*t));
	if (!find_by_name(im, TABLE_NAME, &t->sec)) {
		if (table_from_symbols(im, t, &size))
			return -1;
	} else if (t->sec.sh.sh_type == SHT_PROGBITS &&
		   (t->sec.sh.sh_flags & SHF_ALLOC)) {
		t->addr = t->sec.sh.sh_addr;
		size = t->sec.sh.sh_size;
	} else if (t->sec.sh.sh_size) {
		error(im, TABLE_NAME " is not a loaded (PROGBITS, ALLOC) "
				     "section");
		return -1;
	}
	if (size % ENTRY_SIZE) {
		error(im,
		      TABLE_NAME " size %" PRIu64 " is not a multiple of %d",
		      size, ENTRY_SIZE);
		return -1;
	}
	if (t->addr % 4) {
		error(im, TABLE_NAME " at 0x%" PRIx64 " is not 4-byte aligned",
		      t->addr);
		return -1;
	}
	t->n = size / ENTRY_SIZE;
	if (!t->n)
		return 0;
	t->buf = section_bytes(im, &t->sec, t->addr, size);
	return t->buf ? 0 : -1;
}

static void read_entry(const struct table *t, unsigned long i, struct entry *e)
{
	const unsigned char *p = t->buf + (uint64_t)i * ENTRY_SIZE;
	GElf_Addr at = t->addr + (uint64_t)i * ENTRY_SIZE;
	int32_t key = get_s32(p + 8);

	memset(e, 0, sizeof(*e));
	e->idx = i;
	e->code = at + (int64_t)get_s32(p);
	e->target = at + 4 + (int64_t)get_s32(p + 4);
	e->key = at + 8 + (int64_t)(key & ~KEY_FLAGS);
	e->flags = key & KEY_FLAGS;
}

/* Read the key's initial count and work out the rule for the site. */
static int read_key(struct image *im, struct entry *e)
{
	const unsigned char *p;
	struct section s;

	if (!find_section(im, e->key, sizeof(int32_t), SHF_ALLOC,
			  SHF_EXECINSTR | SHF_TLS, &s)) {
		error(im,
		      "entry %lu: key 0x%" PRIx64
		      " is outside data (no allocated non-executable section)",
		      e->idx, e->key);
		return -1;
	}
	if (s.sh.sh_type == SHT_NOBITS) {
		e->enabled = 0;
	} else {
		p = section_bytes(im, &s, e->key, sizeof(int32_t));
		if (!p)
			return -1;
		e->enabled = get_s32(p);
	}
	e->jump = (e->enabled > 0) ^ (e->flags & 1);
	return 0;
}

/* The text section holding the site; checks the target is text too. */
static int site_section(struct image *im, const struct entry *e,
			struct section *s)
{
	const uint64_t text = SHF_ALLOC | SHF_EXECINSTR;
	struct section ts;

	if (!find_section(im, e->code, 1, text, SHF_TLS, s) ||
	    s->sh.sh_type == SHT_NOBITS) {
		error(im, "entry %lu: code 0x%" PRIx64 " is outside text",
		      e->idx, e->code);
		return -1;
	}
	if (!find_section(im, e->target, 1, text, SHF_TLS, &ts)) {
		error(im, "entry %lu: target 0x%" PRIx64 " is outside text",
		      e->idx, e->target);
		return -1;
	}
	return 0;
}

static void decode(const unsigned char *p, uint64_t avail, GElf_Addr pc,
		   struct insn *in)
{
	memset(in, 0, sizeof(*in));
	if (avail >= 2 && p[0] == JMP8_INSN_OPCODE) {
		in->len = 2;
		in->is_jmp = 1;
		in->dest = pc + 2 + (int8_t)p[1];
	} else if (avail >= 5 && p[0] == JMP32_INSN_OPCODE) {
		in->len = 5;
		in->is_jmp = 1;
		in->dest = pc + 5 + (int64_t)get_s32(p + 1);
	} else if (avail >= 2 && !memcmp(p, nop2, 2)) {
		in->len = 2;
	} else if (avail >= 5 && !memcmp(p, nop5, 5)) {
		in->len = 5;
	}
}

static const char *hex_bytes(const unsigned char *p, uint64_t n)
{
	static char buf[3 * JUMP_LABEL_MAX_SIZE + 1];
	uint64_t i;

	buf[0] = '\0';
	for (i = 0; i < n && i < JUMP_LABEL_MAX_SIZE; i++)
		sprintf(buf + 3 * i, "%02x ", p[i]);
	if (i)
		buf[3 * i - 1] = '\0';
	return buf;
}

/* Is the decoded site consistent with the entry? */
static int check_insn(struct image *im, const struct entry *e,
		      const struct insn *in, const unsigned char *p,
		      uint64_t avail)
{
	const char *bytes = hex_bytes(p, avail);

	if (!in->len || (!in->is_jmp && e->jump)) {
		error(im,
		      "site at 0x%" PRIx64 " (entry %lu) is not a "
		      "jmp8/jmp32: bytes %s%s",
		      e->code, e->idx, bytes,
		      in->len ? " (a NOP, but its key requires a JMP)" : "");
		return -1;
	}
	if (in->is_jmp && in->dest != e->target) {
		error(im,
		      "site at 0x%" PRIx64 " (entry %lu): jmp%d lands on "
		      "0x%" PRIx64 ", not on the target 0x%" PRIx64
		      ": bytes %s",
		      e->code, e->idx, in->len == 2 ? 8 : 32, in->dest,
		      e->target, bytes);
		return -1;
	}
	return 0;
}

/*
 * Checks the entry's site and, if its rule says NOP but it holds a JMP,
 * writes the NOP into libelf's copy of the section (written out later).
 */
static void process_entry(struct image *im, struct result *r, struct entry *e)
{
	unsigned char *p;
	struct section s;
	uint64_t avail;
	struct insn in;

	/* The kernel sets it at boot, relying on the image holding 0. */
	if (e->flags & 2) {
		error(im,
		      "entry %lu: site 0x%" PRIx64 ": the init-text bit "
		      "(bit 1 of the key offset) is set in the image",
		      e->idx, e->code);
		return;
	}
	if (site_section(im, e, &s) || read_key(im, e))
		return;
	avail = s.sh.sh_size - (e->code - s.sh.sh_addr);
	p = section_bytes(im, &s, e->code, 1);
	if (!p)
		return;
	decode(p, avail, e->code, &in);
	if (check_insn(im, e, &in, p, avail))
		return;
	if (in.is_jmp && !e->jump) {
		memcpy(p, in.len == 2 ? nop2 : nop5, in.len);
		elf_flagdata(s.data, ELF_C_SET, ELF_F_DIRTY);
		r->rewritten++;
		r->dirty = 1;
	}
	if (in.len == 2)
		r->shorts++;
	else
		r->longs++;
}

/* (key, code) as unsigned addresses; the old slot keeps the sort stable. */
static int cmp_entry(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->code != y->code)
		return x->code < y->code ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Offset from the field at @at to @addr; -1 if it does not fit in s32. */
static int field_offset(GElf_Addr addr, GElf_Addr at, int32_t *off)
{
	int64_t d = (int64_t)(addr - at);

	if (d < INT32_MIN || d > INT32_MAX)
		return -1;
	*off = (int32_t)d;
	return 0;
}

/* Encodes the (sorted) entry @e for slot @j into @p. */
static int write_entry(struct image *im, const struct table *t, unsigned long j,
		       const struct entry *e, unsigned char *p)
{
	GElf_Addr at = t->addr + (uint64_t)j * ENTRY_SIZE;
	int32_t code, target, key;

	if (field_offset(e->code, at, &code) ||
	    field_offset(e->target, at + 4, &target) ||
	    field_offset(e->key, at + 8, &key)) {
		error(im,
		      "entry %lu cannot move to slot %lu: an offset no "
		      "longer fits in 32 bits",
		      e->idx, j);
		return -1;
	}
	put_s32(p, code);
	put_s32(p + 4, target);
	put_s32(p + 8, key | (int32_t)e->flags);
	return 0;
}

/* Sorts @e and re-encodes it over the table; counts moves and keys. */
static int sort_table(struct image *im, struct table *t, struct entry *e,
		      struct result *r)
{
	unsigned char *buf = malloc(t->n * ENTRY_SIZE);
	unsigned long j;

	if (!buf) {
		error(im, "out of memory");
		return -1;
	}
	qsort(e, t->n, sizeof(*e), cmp_entry);
	for (j = 0; j < t->n; j++) {
		if (write_entry(im, t, j, &e[j], buf + j * ENTRY_SIZE))
			break;
		r->moved += e[j].idx != j;
		r->keys += !j || e[j].key != e[j - 1].key;
	}
	if (j == t->n && memcmp(t->buf, buf, t->n * ENTRY_SIZE)) {
		memcpy(t->buf, buf, t->n * ENTRY_SIZE);
		elf_flagdata(t->sec.data, ELF_C_SET, ELF_F_DIRTY);
		r->dirty = 1;
	}
	free(buf);
	return j == t->n ? 0 : -1;
}

/*
 * The kernel's key definitions (struct static_key_def in __static_keys:
 * a u64 key address, a u32 count, u32 flags; 16 bytes, absolute values in
 * a linked image) sorted by key address, for the module loader's binary
 * search; jump_label_init() then only checks their order. An image
 * without the __start/__stop___static_keys symbols has none to sort.
 */
#define KEY_DEF_SIZE 16

static int cmp_key_def(const void *a, const void *b)
{
	uint64_t x, y;

	memcpy(&x, a, sizeof(x));
	memcpy(&y, b, sizeof(y));
	if (x != y)
		return x < y ? -1 : 1;
	/* Equal keys: keep the linker's order (the defs differ in place). */
	return memcmp(a, b, KEY_DEF_SIZE);
}

static int sort_key_defs(struct image *im, struct result *r)
{
	static const char *const names[] = { "__start___static_keys",
					     "__stop___static_keys", NULL };
	struct section symtab, s;
	unsigned char *p, *copy;
	GElf_Addr value[2];
	uint64_t size;

	if (open_symtab(im, &symtab) <= 0 ||
	    lookup_symbols(im, &symtab, names, value) != 3 ||
	    value[1] <= value[0])
		return 0;
	size = value[1] - value[0];
	if (size % KEY_DEF_SIZE ||
	    !find_section(im, value[0], size, SHF_ALLOC, SHF_EXECINSTR, &s) ||
	    s.sh.sh_type != SHT_PROGBITS) {
		error(im,
		      "__start/__stop___static_keys do not span a whole "
		      "number of %d-byte key definitions in loaded data",
		      KEY_DEF_SIZE);
		return -1;
	}
	p = section_bytes(im, &s, value[0], size);
	copy = p ? malloc(size) : NULL;
	if (!copy) {
		if (p)
			error(im, "out of memory");
		return -1;
	}
	memcpy(copy, p, size);
	qsort(copy, size / KEY_DEF_SIZE, KEY_DEF_SIZE, cmp_key_def);
	r->key_defs = size / KEY_DEF_SIZE;
	if (memcmp(p, copy, size)) {
		memcpy(p, copy, size);
		elf_flagdata(s.data, ELF_C_SET, ELF_F_DIRTY);
		r->dirty = 1;
	}
	free(copy);
	return 0;
}

static void report(const struct result *r)
{
	printf(PROG ": %lu entries, %lu keys, %lu short (2-byte) and "
		    "%lu long (5-byte) sites, %lu rewritten to NOP; ",
	       r->entries, r->keys, r->shorts, r->longs, r->rewritten);
	if (r->moved)
		printf("table sorted by (key, code), %lu entries moved",
		       r->moved);
	else
		printf("table already sorted by (key, code)");
	printf("; %lu key definitions sorted by address\n", r->key_defs);
}

/* Checks and fixes every site, then sorts; writes only if all is well. */
static int fixup(struct image *im, struct table *t, struct entry *e)
{
	struct result r;
	unsigned long i;

	memset(&r, 0, sizeof(r));
	r.entries = t->n;
	for (i = 0; i < t->n; i++) {
		read_entry(t, i, &e[i]);
		process_entry(im, &r, &e[i]);
	}
	if (im->errors || (t->n && sort_table(im, t, e, &r)) ||
	    sort_key_defs(im, &r))
		return -1;
	if (r.dirty && elf_update(im->elf, ELF_C_WRITE) < 0) {
		elf_error(im, "cannot write");
		return -1;
	}
	report(&r);
	return 0;
}

/*
 * --list: the table as the kernel reads it, for the Python tools, which
 * read the format and the order through this tool only. One line per entry
 * in the table's order, then the order's verdict:
 *
 *	table ADDRESS ENTRIES ENTRY_SIZE	(hex address)
 *	entry INDEX CODE TARGET KEY FLAGS	(hex addresses, flags 0-3)
 *	order ok | order INDEX INDEX		(the first pair out of order)
 */
static int list(struct table *t, struct entry *e)
{
	unsigned long i, bad = 0;

	printf("table %" PRIx64 " %zu %d\n", t->addr, t->n, ENTRY_SIZE);
	for (i = 0; i < t->n; i++) {
		read_entry(t, i, &e[i]);
		printf("entry %lu %" PRIx64 " %" PRIx64 " %" PRIx64 " %u\n", i,
		       e[i].code, e[i].target, e[i].key, e[i].flags);
		if (!bad && i && cmp_entry(&e[i - 1], &e[i]) > 0)
			bad = i;
	}
	if (bad)
		printf("order %lu %lu\n", bad - 1, bad);
	else
		printf("order ok\n");
	return 0;
}

static int run(struct image *im)
{
	struct entry *e = NULL;
	struct table t;
	int ret = -1;

	if (open_image(im) || find_table(im, &t))
		return -1;
	e = calloc(t.n ? t.n : 1, sizeof(*e));
	if (!e)
		error(im, "out of memory");
	else
		ret = im->list ? list(&t, e) : fixup(im, &t, e);
	if (im->errors > MAX_ERRORS)
		fprintf(stderr, PROG ": %s: %lu errors in all\n", im->path,
			im->errors);
	free(e);
	return ret;
}

int main(int argc, char **argv)
{
	struct image im;
	int ret;

	memset(&im, 0, sizeof(im));
	if (argc == 3 && !strcmp(argv[1], "--list")) {
		im.list = 1;
		argv++;
		argc--;
	}
	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: " PROG " [--list] VMLINUX\n");
		return 1;
	}
	im.path = argv[1];
	im.fd = -1;
	ret = run(&im);
	if (im.elf)
		elf_end(im.elf);
	if (im.fd >= 0 && close(im.fd) && !ret) {
		error(&im, "cannot close: %s", strerror(errno));
		ret = -1;
	}
	return ret ? 1 : 0;
}
