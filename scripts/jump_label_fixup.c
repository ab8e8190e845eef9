// SPDX-License-Identifier: GPL-2.0
/*
 * jump_label_fixup [--check] VMLINUX
 *
 * Puts every static branch site of the linked kernel in its initial state.
 * The compiler emits each site as "1: jmp l_yes" (jmp8 EB rel8 or jmp32
 * E9 rel32, whichever reaches) plus a __jump_table entry: three s32 offsets,
 * each relative to its own field, giving the site, the jump target and the
 * key (bit 0: branch, bit 1: init, 0 in the image). The kernel's rule is
 *
 *	JMP  iff  (key->enabled > 0) XOR branch
 *
 * with enabled read from the image (0 for a key in .bss). Sites whose rule
 * says NOP become the NOP of the same length: 66 90 or 0f 1f 44 00 00.
 *
 * Every entry is checked first (site and target in executable sections, key
 * in an allocated data section, the site a jmp that lands on the target or
 * already the right NOP); the file is written only if all entries pass, so
 * running the tool twice is harmless. With --check nothing is written and
 * every site must already hold exactly the instruction its rule requires.
 *
 * The table is the section named __jump_table or, if the linker script
 * folds it into another output section, the bytes between the symbols
 * __start___jump_table and __stop___jump_table.
 *
 * Plain file I/O and <elf.h>; the image is ELF64 little-endian, as is the
 * host this runs on.
 */
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG		"jump_label_fixup"
#define TABLE_NAME	"__jump_table"
#define ENTRY_SIZE	12
#define JMP8		0xeb
#define JMP32		0xe9
#define MAX_INSN	5
#define MAX_ERRORS	50

static const unsigned char nop2[2] = { 0x66, 0x90 };
static const unsigned char nop5[5] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };

struct image {
	const char *path;
	unsigned char *buf;
	size_t size;
	Elf64_Shdr *sh;
	unsigned int shnum;
	unsigned int shstrndx;
	unsigned long errors;
};

/* Where the table lives: its address, file offset and size in bytes. */
struct table {
	Elf64_Addr addr;
	uint64_t off;
	uint64_t size;
};

struct entry {
	unsigned long idx;
	Elf64_Addr code;
	Elf64_Addr target;
	Elf64_Addr key;
	int branch;
	int32_t enabled;
	int jump;		/* the rule: 1 = JMP, 0 = NOP */
};

/* What the bytes at a site decode to. */
struct insn {
	int len;		/* 2 or 5; 0 if not a jmp or NOP we know */
	int is_jmp;
	Elf64_Addr dest;	/* for a jmp */
};

struct edit {
	uint64_t off;
	int len;
};

struct result {
	unsigned long entries;
	unsigned long keys;
	unsigned long shorts;
	unsigned long longs;
	unsigned long jmps;
	unsigned long nops;
	unsigned long rewritten;
	Elf64_Addr *key_addrs;
	struct edit *edits;
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

/* gcc converts out-of-range values to signed types modulo 2^N. */
static int32_t get_s32(const unsigned char *p)
{
	return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 |
			 (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
}

/* Does [off, off + len) lie inside the file? */
static int in_file(const struct image *im, uint64_t off, uint64_t len)
{
	return off <= im->size && len <= im->size - off;
}

static int read_image(struct image *im)
{
	FILE *f = fopen(im->path, "rb");
	long len;

	if (!f) {
		error(im, "cannot open: %s", strerror(errno));
		return -1;
	}
	if (fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET)) {
		error(im, "cannot size: %s", strerror(errno));
		fclose(f);
		return -1;
	}
	im->size = len;
	im->buf = malloc(im->size ? im->size : 1);
	if (!im->buf || fread(im->buf, 1, im->size, f) != im->size) {
		error(im, "cannot read: %s", im->buf ? "short read" :
		      "out of memory");
		fclose(f);
		return -1;
	}
	fclose(f);
	return 0;
}

static const char *ehdr_problem(const struct image *im, const Elf64_Ehdr *eh)
{
	if (im->size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG))
		return "not an ELF file";
	if (eh->e_ident[EI_CLASS] != ELFCLASS64)
		return "not ELF64";
	if (eh->e_ident[EI_DATA] != ELFDATA2LSB)
		return "not little-endian";
	if (eh->e_machine != EM_X86_64)
		return "not x86-64";
	if (eh->e_type != ET_EXEC)
		return "not an executable (e_type is not ET_EXEC)";
	if (!eh->e_shoff)
		return "no section headers";
	if (eh->e_shentsize != sizeof(Elf64_Shdr))
		return "bad section header size (e_shentsize)";
	if (!in_file(im, eh->e_shoff, sizeof(Elf64_Shdr)))
		return "section header table lies outside the file";
	return NULL;
}

/* Copy the section headers out, honouring extended numbering. */
static int load_sections(struct image *im)
{
	Elf64_Ehdr eh;
	Elf64_Shdr sh0;
	const char *why;
	uint64_t num;

	memset(&eh, 0, sizeof(eh));
	memcpy(&eh, im->buf, im->size < sizeof(eh) ? im->size : sizeof(eh));
	why = ehdr_problem(im, &eh);
	if (why) {
		error(im, "%s", why);
		return -1;
	}
	memcpy(&sh0, im->buf + eh.e_shoff, sizeof(sh0));
	num = eh.e_shnum ? eh.e_shnum : sh0.sh_size;
	if (!num) {
		error(im, "no section headers");
		return -1;
	}
	if (num > im->size / sizeof(Elf64_Shdr) ||
	    !in_file(im, eh.e_shoff, num * sizeof(Elf64_Shdr))) {
		error(im, "section header table lies outside the file");
		return -1;
	}
	im->sh = malloc(num * sizeof(Elf64_Shdr));
	if (!im->sh) {
		error(im, "out of memory");
		return -1;
	}
	memcpy(im->sh, im->buf + eh.e_shoff, num * sizeof(Elf64_Shdr));
	im->shnum = num;
	im->shstrndx = eh.e_shstrndx == SHN_XINDEX ? sh0.sh_link :
						      eh.e_shstrndx;
	return 0;
}

static int check_sections(struct image *im)
{
	const Elf64_Shdr *s;
	unsigned int i;

	for (i = 1; i < im->shnum; i++) {
		s = &im->sh[i];
		if (s->sh_type != SHT_NOBITS &&
		    !in_file(im, s->sh_offset, s->sh_size)) {
			error(im, "section %u lies outside the file", i);
			return -1;
		}
	}
	if (im->shstrndx == SHN_UNDEF || im->shstrndx >= im->shnum ||
	    im->sh[im->shstrndx].sh_type != SHT_STRTAB) {
		error(im, "no section header string table");
		return -1;
	}
	return 0;
}

/* A NUL-terminated string at @idx in the string table section @strtab. */
static const char *string_at(const struct image *im,
			     const Elf64_Shdr *strtab, uint64_t idx)
{
	const char *s = (const char *)im->buf + strtab->sh_offset;

	if (idx >= strtab->sh_size ||
	    !memchr(s + idx, 0, strtab->sh_size - idx))
		return "";
	return s + idx;
}

static const char *section_name(const struct image *im, const Elf64_Shdr *s)
{
	return string_at(im, &im->sh[im->shstrndx], s->sh_name);
}

/*
 * The section holding [addr, addr + len) among those with all the flags in
 * @set and none of those in @clear.
 */
static const Elf64_Shdr *find_section(const struct image *im, Elf64_Addr addr,
				      uint64_t len, uint64_t set,
				      uint64_t clear)
{
	const Elf64_Shdr *s;
	unsigned int i;

	for (i = 1; i < im->shnum; i++) {
		s = &im->sh[i];
		if ((s->sh_flags & (set | clear)) != set)
			continue;
		if (addr < s->sh_addr || addr - s->sh_addr >= s->sh_size)
			continue;
		if (len > s->sh_size - (addr - s->sh_addr))
			continue;
		return s;
	}
	return NULL;
}

static const Elf64_Shdr *find_by_name(const struct image *im, const char *name)
{
	unsigned int i;

	for (i = 1; i < im->shnum; i++)
		if (!strcmp(section_name(im, &im->sh[i]), name))
			return &im->sh[i];
	return NULL;
}

/* Value of the symbol @name in .symtab; 0 if it is missing. */
static int find_symbol(const struct image *im, const char *name,
		       Elf64_Addr *value)
{
	const Elf64_Shdr *symtab = find_by_name(im, ".symtab");
	const Elf64_Shdr *strtab;
	Elf64_Sym sym;
	uint64_t i;

	if (!symtab || symtab->sh_type != SHT_SYMTAB ||
	    symtab->sh_link >= im->shnum)
		return 0;
	strtab = &im->sh[symtab->sh_link];
	if (strtab->sh_type != SHT_STRTAB)
		return 0;
	for (i = 0; i < symtab->sh_size / sizeof(sym); i++) {
		memcpy(&sym, im->buf + symtab->sh_offset + i * sizeof(sym),
		       sizeof(sym));
		if (!strcmp(string_at(im, strtab, sym.st_name), name)) {
			*value = sym.st_value;
			return 1;
		}
	}
	return 0;
}

/* No __jump_table section: the table between its start and stop symbols. */
static int table_from_symbols(struct image *im, struct table *t)
{
	Elf64_Addr start, stop;
	const Elf64_Shdr *s;

	memset(t, 0, sizeof(*t));
	if (!find_symbol(im, "__start___jump_table", &start) ||
	    !find_symbol(im, "__stop___jump_table", &stop))
		return 0;
	if (stop < start) {
		error(im, "__stop___jump_table lies before "
		      "__start___jump_table");
		return -1;
	}
	if (stop == start)
		return 0;
	s = find_section(im, start, stop - start, SHF_ALLOC, 0);
	if (!s || s->sh_type != SHT_PROGBITS) {
		error(im, "__start/__stop___jump_table do not span "
		      "loaded data");
		return -1;
	}
	t->addr = start;
	t->off = s->sh_offset + (start - s->sh_addr);
	t->size = stop - start;
	return 0;
}

static int find_table(struct image *im, struct table *t)
{
	const Elf64_Shdr *s = find_by_name(im, TABLE_NAME);

	if (!s) {
		if (table_from_symbols(im, t))
			return -1;
	} else if (s->sh_type == SHT_PROGBITS && (s->sh_flags & SHF_ALLOC)) {
		t->addr = s->sh_addr;
		t->off = s->sh_offset;
		t->size = s->sh_size;
	} else if (s->sh_size) {
		error(im, TABLE_NAME " is not a loaded (PROGBITS, ALLOC) "
		      "section");
		return -1;
	}
	if (t->size % ENTRY_SIZE) {
		error(im, TABLE_NAME " size %" PRIu64
		      " is not a multiple of %d", t->size, ENTRY_SIZE);
		return -1;
	}
	if (t->addr % 4) {
		error(im, TABLE_NAME " at 0x%" PRIx64 " is not 4-byte aligned",
		      t->addr);
		return -1;
	}
	return 0;
}

static void read_entry(const struct image *im, const struct table *t,
		       unsigned long i, struct entry *e)
{
	const unsigned char *p = im->buf + t->off + (uint64_t)i * ENTRY_SIZE;
	Elf64_Addr at = t->addr + (uint64_t)i * ENTRY_SIZE;
	int32_t key = get_s32(p + 8);

	memset(e, 0, sizeof(*e));
	e->idx = i;
	e->code = at + (int64_t)get_s32(p);
	e->target = at + 4 + (int64_t)get_s32(p + 4);
	e->key = at + 8 + (int64_t)(key & ~3);
	e->branch = key & 1;
}

/* Read the key's initial count and work out the rule for the site. */
static int read_key(struct image *im, struct entry *e)
{
	const Elf64_Shdr *s;

	s = find_section(im, e->key, sizeof(int32_t), SHF_ALLOC,
			 SHF_EXECINSTR | SHF_TLS);
	if (!s) {
		error(im, "entry %lu: key 0x%" PRIx64
		      " is outside data (no allocated non-executable section)",
		      e->idx, e->key);
		return -1;
	}
	if (s->sh_type == SHT_NOBITS)
		e->enabled = 0;
	else
		e->enabled = get_s32(im->buf + s->sh_offset +
				     (e->key - s->sh_addr));
	e->jump = (e->enabled > 0) ^ e->branch;
	return 0;
}

/* The text section holding the site; checks the target is text too. */
static const Elf64_Shdr *site_section(struct image *im, const struct entry *e)
{
	const uint64_t text = SHF_ALLOC | SHF_EXECINSTR;
	const Elf64_Shdr *s = find_section(im, e->code, 1, text, SHF_TLS);

	if (!s || s->sh_type == SHT_NOBITS) {
		error(im, "entry %lu: code 0x%" PRIx64 " is outside text",
		      e->idx, e->code);
		return NULL;
	}
	if (!find_section(im, e->target, 1, text, SHF_TLS)) {
		error(im, "entry %lu: target 0x%" PRIx64 " is outside text",
		      e->idx, e->target);
		return NULL;
	}
	return s;
}

static void decode(const unsigned char *p, uint64_t avail, Elf64_Addr pc,
		   struct insn *in)
{
	memset(in, 0, sizeof(*in));
	if (avail >= 2 && p[0] == JMP8) {
		in->len = 2;
		in->is_jmp = 1;
		in->dest = pc + 2 + (int8_t)p[1];
	} else if (avail >= 5 && p[0] == JMP32) {
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
	static char buf[3 * MAX_INSN + 1];
	uint64_t i;

	buf[0] = '\0';
	for (i = 0; i < n && i < MAX_INSN; i++)
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
	const char *bytes = hex_bytes(p, avail < MAX_INSN ? avail : MAX_INSN);

	if (!in->len || (!in->is_jmp && e->jump)) {
		error(im, "site at 0x%" PRIx64 " (entry %lu) is not a "
		      "jmp8/jmp32: bytes %s%s", e->code, e->idx, bytes,
		      in->len ? " (a NOP, but its key requires a JMP)" : "");
		return -1;
	}
	if (in->is_jmp && in->dest != e->target) {
		error(im, "site at 0x%" PRIx64 " (entry %lu): jmp%d lands on "
		      "0x%" PRIx64 ", not on the target 0x%" PRIx64
		      ": bytes %s", e->code, e->idx, in->len == 2 ? 8 : 32,
		      in->dest, e->target, bytes);
		return -1;
	}
	return 0;
}

/* Rewrite a JMP the rule says is a NOP (in memory; written out later). */
static int fix_site(struct image *im, struct result *r, const struct entry *e,
		    const struct insn *in, uint64_t off, int check)
{
	if (!in->is_jmp || e->jump)
		return 0;
	if (check) {
		error(im, "site at 0x%" PRIx64 " (entry %lu) is a jmp%d but "
		      "its key (0x%" PRIx64 ", enabled %d, branch %d) "
		      "requires a NOP", e->code, e->idx,
		      in->len == 2 ? 8 : 32, e->key, e->enabled, e->branch);
		return -1;
	}
	memcpy(im->buf + off, in->len == 2 ? nop2 : nop5, in->len);
	r->edits[r->rewritten].off = off;
	r->edits[r->rewritten].len = in->len;
	r->rewritten++;
	return 0;
}

static void process_entry(struct image *im, struct result *r,
			  struct entry *e, int check)
{
	const Elf64_Shdr *s = site_section(im, e);
	uint64_t off, avail;
	struct insn in;

	if (!s || read_key(im, e))
		return;
	r->key_addrs[r->keys++] = e->key;
	off = s->sh_offset + (e->code - s->sh_addr);
	avail = s->sh_size - (e->code - s->sh_addr);
	decode(im->buf + off, avail, e->code, &in);
	if (check_insn(im, e, &in, im->buf + off, avail))
		return;
	if (fix_site(im, r, e, &in, off, check))
		return;
	if (in.len == 2)
		r->shorts++;
	else
		r->longs++;
	if (e->jump)
		r->jmps++;
	else
		r->nops++;
}

static int cmp_addr(const void *a, const void *b)
{
	Elf64_Addr x = *(const Elf64_Addr *)a, y = *(const Elf64_Addr *)b;

	return x < y ? -1 : x > y;
}

/* Turn the list of key addresses into the number of distinct keys. */
static void count_keys(struct result *r)
{
	unsigned long i, n = 0;

	if (!r->keys)
		return;
	qsort(r->key_addrs, r->keys, sizeof(*r->key_addrs), cmp_addr);
	for (i = 0; i < r->keys; i++)
		if (!i || r->key_addrs[i] != r->key_addrs[i - 1])
			n++;
	r->keys = n;
}

static int process_table(struct image *im, const struct table *t,
			 struct result *r, int check)
{
	unsigned long i, n = t->size / ENTRY_SIZE;
	struct entry e;

	memset(r, 0, sizeof(*r));
	r->entries = n;
	r->key_addrs = calloc(n ? n : 1, sizeof(*r->key_addrs));
	r->edits = calloc(n ? n : 1, sizeof(*r->edits));
	if (!r->key_addrs || !r->edits) {
		error(im, "out of memory");
		return -1;
	}
	for (i = 0; i < n; i++) {
		read_entry(im, t, i, &e);
		process_entry(im, r, &e, check);
	}
	count_keys(r);
	return im->errors ? -1 : 0;
}

static int write_edits(struct image *im, const struct result *r)
{
	unsigned long i;
	FILE *f;

	if (!r->rewritten)
		return 0;
	f = fopen(im->path, "r+b");
	if (!f) {
		error(im, "cannot open for writing: %s", strerror(errno));
		return -1;
	}
	for (i = 0; i < r->rewritten; i++) {
		const struct edit *ed = &r->edits[i];

		if (fseek(f, (long)ed->off, SEEK_SET) ||
		    fwrite(im->buf + ed->off, 1, ed->len, f) != (size_t)ed->len)
			break;
	}
	if (fclose(f) || i < r->rewritten) {
		error(im, "cannot write: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static void report(const struct result *r, int check)
{
	printf(PROG ": %lu entries, %lu keys, %lu short (2-byte) and "
	       "%lu long (5-byte) sites, ", r->entries, r->keys, r->shorts,
	       r->longs);
	if (check)
		printf("all verified (%lu JMP, %lu NOP)\n", r->jmps, r->nops);
	else
		printf("%lu rewritten to NOP\n", r->rewritten);
}

static int run(struct image *im, int check)
{
	struct result r;
	struct table t;
	int ret = -1;

	memset(&r, 0, sizeof(r));
	memset(&t, 0, sizeof(t));
	if (read_image(im) || load_sections(im) || check_sections(im) ||
	    find_table(im, &t))
		return -1;
	if (!process_table(im, &t, &r, check) &&
	    (check || !write_edits(im, &r))) {
		report(&r, check);
		ret = 0;
	}
	if (im->errors > MAX_ERRORS)
		fprintf(stderr, PROG ": %s: %lu errors in all\n", im->path,
			im->errors);
	free(r.key_addrs);
	free(r.edits);
	return ret;
}

/* [--check] VMLINUX */
static const char *parse_args(int argc, char **argv, int *check)
{
	int i = 1;

	if (i < argc && !strcmp(argv[i], "--check")) {
		*check = 1;
		i++;
	}
	if (i != argc - 1 || argv[i][0] == '-')
		return NULL;
	return argv[i];
}

int main(int argc, char **argv)
{
	struct image im;
	int check = 0, ret;

	memset(&im, 0, sizeof(im));
	im.path = parse_args(argc, argv, &check);
	if (!im.path) {
		fprintf(stderr, "usage: " PROG " [--check] VMLINUX\n");
		return 1;
	}
	ret = run(&im, check);
	free(im.buf);
	free(im.sh);
	return ret ? 1 : 0;
}
