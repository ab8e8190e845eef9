// SPDX-License-Identifier: GPL-2.0
/*
 * Programs: the table of executables the boot archive carries (/bin/NAME,
 * gzip-packed: kernel/module/initramfs.c), and the static ELF64 loader
 * that puts one into an empty address space with Linux's initial stack:
 *
 *   sp -> argc, argv[0..argc-1], NULL, envp[...], NULL,
 *         auxv (type, value) pairs ending with AT_NULL,
 *         then, higher, the 16 AT_RANDOM bytes, "x86_64", the strings.
 *
 * Validation is as strict as the module loader's: every offset and size
 * is checked against the file and the user half before anything is
 * mapped, and a bad file fails with -ENOEXEC and a one-line message.
 */
#include <linux/kernel.h>
#include <linux/elf.h>
#include <linux/init.h>
#include <linux/inflate.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/process.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timex.h>
#include <asm/barrier.h>
#include <asm/processor.h>
#include <asm/user_pgtable.h>

#define ET_EXEC 2
#define ET_DYN 3
#define PT_LOAD 1
#define PT_INTERP 3
#define PF_X 0x1
#define PF_W 0x2
#define PF_R 0x4
#define EXEC_MAX_PHNUM 64
#define EXEC_MAX_SEGMENT (256UL << 20)
#define EXEC_ARGS_MAX (32 * 1024) /* bytes of argv and envp strings */
#define EXEC_ARGS_COUNT 256

#define AT_NULL 0
#define AT_PHDR 3
#define AT_PHENT 4
#define AT_PHNUM 5
#define AT_PAGESZ 6
#define AT_BASE 7
#define AT_FLAGS 8
#define AT_ENTRY 9
#define AT_UID 11
#define AT_EUID 12
#define AT_GID 13
#define AT_EGID 14
#define AT_PLATFORM 15
#define AT_HWCAP 16
#define AT_CLKTCK 17
#define AT_SECURE 23
#define AT_RANDOM 25
#define AT_HWCAP2 26
#define AT_EXECFN 31

typedef struct {
	Elf64_Word p_type;
	Elf64_Word p_flags;
	Elf64_Off p_offset;
	Elf64_Addr p_vaddr;
	Elf64_Addr p_paddr;
	Elf64_Xword p_filesz;
	Elf64_Xword p_memsz;
	Elf64_Xword p_align;
} Elf64_Phdr;

#define EXEC_PROGS_MAX 64
static struct user_prog progs[EXEC_PROGS_MAX];
static unsigned int nr_progs;
/*
 * The gzip member of a program the boot archive carries packed, until
 * exec_find() first unpacks it into memory of its own (kept: a program
 * run once is likely run again); its user_prog has its unpacked size and
 * no data till then.
 */
static struct {
	const void *data;
	size_t size;
} packed[EXEC_PROGS_MAX];
static DEFINE_MUTEX(unpack_mutex);
/*
 * The decoder's state, under unpack_mutex. Static: in a kmalloc()ed
 * object, its stores ran 200 times slower under QEMU's TCG (86 s for a
 * 750 KB program, 0.4 s here), as if that page held translated code.
 */
static struct inflate_work unpack_work;

int __init exec_prog_add(const char *name, const void *data, size_t size)
{
	struct user_prog *p = &progs[nr_progs];

	if (nr_progs == EXEC_PROGS_MAX) {
		pr_warn("exec: %s ignored: at most %d programs\n", name,
			EXEC_PROGS_MAX);
		return -ENOSPC;
	}
	*p = (struct user_prog){ name, data, size };
	if (is_gzip(data, size)) {
		packed[nr_progs].data = data;
		packed[nr_progs].size = size;
		*p = (struct user_prog){ name, NULL, gzip_size(data, size) };
	}
	nr_progs++;
	return 0;
}

/* p, unpacked if it was packed; NULL (said) if it cannot be. */
static const struct user_prog *exec_unpack(struct user_prog *p)
{
	unsigned int i = p - progs;
	ssize_t got = -ENOMEM;
	void *buf;

	if (!smp_load_acquire(&packed[i].data))
		return p;
	mutex_lock(&unpack_mutex);
	if (packed[i].data) {
		buf = kmalloc(p->size ? p->size : 1, GFP_KERNEL);
		if (buf)
			got = gunzip(packed[i].data, packed[i].size, buf,
				     p->size, &unpack_work);
		if (got < 0) {
			mutex_unlock(&unpack_mutex);
			kfree(buf);
			pr_err("exec: %s: cannot unpack it from the boot archive (%zd)\n",
			       p->name, got);
			return NULL;
		}
		p->data = buf;
		p->size = got;
		smp_store_release(&packed[i].data, NULL);
	}
	mutex_unlock(&unpack_mutex);
	return p;
}

const struct user_prog *exec_find(const char *path)
{
	unsigned int i;

	for (i = 0; i < nr_progs; i++) {
		const char *n = progs[i].name;

		/* "/bin/foo", "bin/foo" and "foo" all name /bin/foo. */
		if (!strcmp(n, path) || !strcmp(n + 1, path) ||
		    !strcmp(n + 5, path))
			return exec_unpack(&progs[i]);
	}
	return NULL;
}

unsigned int exec_prog_count(void)
{
	return nr_progs;
}

const struct user_prog *exec_prog_get(unsigned int i)
{
	return i < nr_progs ? &progs[i] : NULL;
}

#define exec_err(name, fmt, ...)                                    \
	({                                                          \
		pr_err("exec: %s: " fmt "\n", name, ##__VA_ARGS__); \
		-ENOEXEC;                                           \
	})

static int check_ehdr(const char *name, const Elf64_Ehdr *eh, size_t size)
{
	if (size < sizeof(*eh))
		return exec_err(name,
				"truncated: %zu bytes, an ELF header is %zu",
				size, sizeof(*eh));
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG))
		return exec_err(name, "not an ELF file");
	if (eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh->e_ident[EI_VERSION] != EV_CURRENT || eh->e_machine != EM_X86_64)
		return exec_err(name, "not a little-endian ELF64 x86-64 file");
	if (eh->e_type != ET_EXEC && eh->e_type != ET_DYN)
		return exec_err(name, "ELF type %u is not ET_EXEC or ET_DYN",
				eh->e_type);
	if (eh->e_phentsize != sizeof(Elf64_Phdr) || !eh->e_phnum ||
	    eh->e_phnum > EXEC_MAX_PHNUM)
		return exec_err(name, "bad program headers: %u of %u bytes",
				eh->e_phnum, eh->e_phentsize);
	if (eh->e_phoff > size ||
	    (size - eh->e_phoff) / sizeof(Elf64_Phdr) < eh->e_phnum)
		return exec_err(
			name,
			"truncated: program headers past the end of the file (%zu bytes)",
			size);
	return 0;
}

/* The checks of one PT_LOAD, base added (ET_DYN). */
static int check_load(const char *name, const Elf64_Phdr *ph, size_t size,
		      unsigned long base, unsigned int i)
{
	unsigned long start = base + ph->p_vaddr;

	if (ph->p_offset > size || ph->p_filesz > size - ph->p_offset)
		return exec_err(
			name,
			"truncated: segment %u needs bytes %#lx-%#lx, the file has %#zx",
			i, ph->p_offset,
			(unsigned long)(ph->p_offset + ph->p_filesz), size);
	if (ph->p_filesz > ph->p_memsz)
		return exec_err(name,
				"segment %u: p_filesz %#lx > p_memsz %#lx", i,
				ph->p_filesz, ph->p_memsz);
	if (ph->p_memsz > EXEC_MAX_SEGMENT)
		return exec_err(
			name, "segment %u: p_memsz %#lx is huge (at most %#lx)",
			i, ph->p_memsz, EXEC_MAX_SEGMENT);
	if (start < PAGE_SIZE || start < ph->p_vaddr ||
	    start >= USER_ADDR_END || ph->p_memsz > USER_ADDR_END - start)
		return exec_err(name,
				"segment %u at %#lx-%#lx is outside user space",
				i, start, start + (unsigned long)ph->p_memsz);
	if ((ph->p_vaddr - ph->p_offset) & (PAGE_SIZE - 1))
		return exec_err(
			name,
			"segment %u: p_vaddr %#lx and p_offset %#lx differ modulo the page size",
			i, ph->p_vaddr, ph->p_offset);
	if ((ph->p_flags & PF_W) && (ph->p_flags & PF_X))
		return exec_err(
			name, "segment %u is writable and executable (W^X)", i);
	return 0;
}

static int check_phdrs(const char *name, const Elf64_Ehdr *eh,
		       const Elf64_Phdr *ph, size_t size, unsigned long base)
{
	unsigned int i, j, loads = 0;
	bool entry_ok = false;
	int ret;

	for (i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_INTERP)
			return exec_err(
				name,
				"needs an interpreter: only static executables run here");
		if (ph[i].p_type != PT_LOAD || !ph[i].p_memsz)
			continue;
		ret = check_load(name, &ph[i], size, base, i);
		if (ret)
			return ret;
		loads++;
		for (j = 0; j < i; j++) {
			if (ph[j].p_type != PT_LOAD || !ph[j].p_memsz)
				continue;
			if (ph[i].p_vaddr < ph[j].p_vaddr + ph[j].p_memsz &&
			    ph[j].p_vaddr < ph[i].p_vaddr + ph[i].p_memsz)
				return exec_err(name,
						"segments %u and %u overlap", j,
						i);
		}
		if ((ph[i].p_flags & PF_X) && eh->e_entry >= ph[i].p_vaddr &&
		    eh->e_entry - ph[i].p_vaddr < ph[i].p_memsz)
			entry_ok = true;
	}
	if (!loads)
		return exec_err(name, "no PT_LOAD segment");
	if (!entry_ok)
		return exec_err(name,
				"entry point %#lx is in no executable segment",
				eh->e_entry);
	return 0;
}

static unsigned int seg_uprot(const Elf64_Phdr *ph)
{
	return (ph->p_flags & PF_R ? UPROT_READ : 0) |
	       (ph->p_flags & PF_W ? UPROT_WRITE : 0) |
	       (ph->p_flags & PF_X ? UPROT_EXEC : 0);
}

/*
 * Maps a segment page by page: a page the previous segment mapped already
 * (two segments may share a page without sharing bytes) gets the union of
 * their protections, refused if that is writable and executable.
 */
static int load_segment(const char *name, struct mm_struct *mm,
			const Elf64_Phdr *ph, const u8 *image,
			unsigned long base)
{
	unsigned long start = base + ph->p_vaddr, end = start + ph->p_memsz;
	unsigned long va, fstart = start, fend = start + ph->p_filesz;
	unsigned int uprot = seg_uprot(ph), old;

	for (va = ALIGN_DOWN(start, PAGE_SIZE); va < end; va += PAGE_SIZE) {
		phys_addr_t pa = user_lookup(mm->pgd, va, &old);
		unsigned long lo = max(va, fstart),
			      hi = min(va + PAGE_SIZE, fend);
		int ret;

		if (pa) {
			if ((old | uprot) & UPROT_WRITE &&
			    (old | uprot) & UPROT_EXEC)
				return exec_err(
					name,
					"a page at %#lx would be writable and executable",
					va);
			user_protect_page(mm->pgd, va, old | uprot);
		} else {
			pa = alloc_zeroed_frame();
			if (!pa)
				return -ENOMEM;
			ret = user_map_page(mm->pgd, va, pa, uprot);
			if (ret) {
				free_frame(pa);
				return ret;
			}
			mm->nr_pages++;
		}
		if (lo < hi)
			memcpy((u8 *)__va(pa) + (lo - va),
			       image + ph->p_offset + (lo - fstart), hi - lo);
	}
	if (end > mm->start_brk)
		mm->start_brk = mm->brk = ALIGN(end, PAGE_SIZE);
	return 0;
}

/* Writes len bytes at user address va of mm (mapped) through the direct map. */
static void mm_poke(struct mm_struct *mm, unsigned long va, const void *src,
		    size_t len)
{
	const u8 *s = src;

	while (len) {
		unsigned long off = va & (PAGE_SIZE - 1);
		size_t n = min(len, (size_t)(PAGE_SIZE - off));
		phys_addr_t pa = user_lookup(mm->pgd, va & PAGE_MASK, NULL);

		if (WARN_ON_ONCE(!pa))
			return;
		memcpy((u8 *)__va(pa) + off, s, n);
		va += n;
		s += n;
		len -= n;
	}
}

/* The arguments gathered in kernel memory before the old image goes. */
struct exec_args {
	char *buf; /* argv's strings then envp's, NUL-separated */
	size_t len;
	unsigned int argc, envc;
};

static int gather(struct exec_args *a, const char *const *v, bool user,
		  unsigned int *count)
{
	unsigned int n;

	for (n = 0;; n++) {
		const char *s;
		long len;

		if (user && !v) {
			s = NULL; /* a NULL argv or envp: none */
		} else if (user) {
			if (copy_from_user(&s,
					   (const char *const __user *)&v[n],
					   sizeof(s)))
				return -EFAULT;
		} else {
			s = v ? v[n] : NULL;
		}
		if (!s)
			break;
		if (n == EXEC_ARGS_COUNT)
			return -E2BIG;
		if (user) {
			len = strncpy_from_user(a->buf + a->len, s,
						EXEC_ARGS_MAX - a->len);
			if (len < 0)
				return len;
		} else {
			len = strnlen(s, EXEC_ARGS_MAX - a->len);
			memcpy(a->buf + a->len, s, len);
		}
		if (a->len + len >= EXEC_ARGS_MAX)
			return -E2BIG;
		a->buf[a->len + len] = 0;
		a->len += len + 1;
	}
	*count = n;
	return 0;
}

static unsigned long phdr_addr(const Elf64_Ehdr *eh, const Elf64_Phdr *ph,
			       unsigned long base)
{
	unsigned int i;

	for (i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && eh->e_phoff >= ph[i].p_offset &&
		    eh->e_phoff - ph[i].p_offset < ph[i].p_filesz)
			return base + ph[i].p_vaddr + eh->e_phoff -
			       ph[i].p_offset;
	return 0;
}

static void fill_random(u8 *b, size_t n)
{
	u64 x = get_cycles() ^ 0x9e3779b97f4a7c15ULL;
	size_t i;

	for (i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		b[i] = x >> 24;
	}
}

/* Builds the stack (mapped already) and returns the initial sp. */
static unsigned long build_stack(struct mm_struct *mm, struct exec_args *a,
				 const Elf64_Ehdr *eh, const Elf64_Phdr *ph,
				 unsigned long base)
{
	unsigned long top = USER_STACK_TOP, strings, rnd, plat, sp, p;
	unsigned long words[2 * EXEC_ARGS_COUNT + 64];
	unsigned int n = 0, i;
	u32 ca, cb, cc, cd;
	u8 random[16];
	size_t off;

	strings = top - ALIGN(a->len, 16);
	mm_poke(mm, strings, a->buf, a->len);
	plat = strings - 16;
	mm_poke(mm, plat, "x86_64", 7);
	rnd = plat - 16;
	fill_random(random, sizeof(random));
	mm_poke(mm, rnd, random, sizeof(random));

	words[n++] = a->argc;
	for (i = 0, off = 0; i < a->argc + a->envc; i++) {
		if (i == a->argc)
			words[n++] = 0;
		words[n++] = strings + off;
		off += strlen(a->buf + off) + 1;
	}
	if (a->argc == a->argc + a->envc)
		words[n++] = 0;
	words[n++] = 0;
	cpuid(1, &ca, &cb, &cc, &cd);
#define AUX(t, v)                 \
	do {                      \
		words[n++] = (t); \
		words[n++] = (v); \
	} while (0)
	AUX(AT_PHDR, phdr_addr(eh, ph, base));
	AUX(AT_PHENT, sizeof(Elf64_Phdr));
	AUX(AT_PHNUM, eh->e_phnum);
	AUX(AT_PAGESZ, PAGE_SIZE);
	AUX(AT_BASE, 0);
	AUX(AT_FLAGS, 0);
	AUX(AT_ENTRY, base + eh->e_entry);
	AUX(AT_UID, 0);
	AUX(AT_EUID, 0);
	AUX(AT_GID, 0);
	AUX(AT_EGID, 0);
	AUX(AT_PLATFORM, plat);
	AUX(AT_HWCAP, cd);
	AUX(AT_CLKTCK, 100);
	AUX(AT_SECURE, 0);
	AUX(AT_RANDOM, rnd);
	AUX(AT_HWCAP2, 0);
	AUX(AT_EXECFN, strings);
	AUX(AT_NULL, 0);
#undef AUX
	sp = ALIGN_DOWN(rnd - n * sizeof(long), 16);
	for (i = 0, p = sp; i < n; i++, p += sizeof(long))
		mm_poke(mm, p, &words[i], sizeof(long));
	return sp;
}

static int exec_map(struct mm_struct *mm, const char *name, const u8 *image,
		    size_t size, struct exec_args *a, unsigned long *ip,
		    unsigned long *sp)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)image;
	const Elf64_Phdr *ph;
	unsigned long base;
	unsigned int i;
	int ret;

	ret = check_ehdr(name, eh, size);
	if (ret)
		return ret;
	ph = (const Elf64_Phdr *)(image + eh->e_phoff);
	base = eh->e_type == ET_DYN ? USER_PIE_BASE : 0;
	ret = check_phdrs(name, eh, ph, size, base);
	if (ret)
		return ret;
	for (i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type != PT_LOAD || !ph[i].p_memsz)
			continue;
		ret = load_segment(name, mm, &ph[i], image, base);
		if (ret)
			return ret;
	}
	ret = mm_map_anon(mm, USER_STACK_TOP - USER_STACK_SIZE, USER_STACK_TOP,
			  UPROT_READ | UPROT_WRITE);
	if (ret)
		return ret;
	*sp = build_stack(mm, a, eh, ph, base);
	*ip = base + eh->e_entry;
	return 0;
}

int exec_load(struct mm_struct *mm, const char *name, const void *image,
	      size_t size, const char *const *argv, const char *const *envp,
	      bool user_strings, unsigned long *ip, unsigned long *sp)
{
	struct exec_args a = {};
	int ret;

	a.buf = kmalloc(EXEC_ARGS_MAX, GFP_KERNEL);
	if (!a.buf)
		return -ENOMEM;
	ret = gather(&a, argv, user_strings, &a.argc);
	if (!ret && !a.argc) {
		static bool warned;

		/* As Linux since 5.18: argv[0] is "" rather than absent. */
		if (!__atomic_exchange_n(&warned, true, __ATOMIC_RELAXED))
			pr_warn("exec: %s launched with NULL argv: empty string added\n",
				name);
		a.buf[a.len++] = 0;
		a.argc = 1;
	}
	if (!ret)
		ret = gather(&a, envp, user_strings, &a.envc);
	if (!ret)
		ret = exec_map(mm, name, image, size, &a, ip, sp);
	kfree(a.buf);
	return ret;
}
