// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's page tables, built once the frame allocator works:
 *
 *   __KERNEL_VIRT_BASE + phys  the image, 4 KiB pages, W^X per section:
 *                              text RX, rodata R, data and bss RW+NX,
 *                              ro_after_init RW until mark_rodata_ro();
 *                              init text RX and init data RW until
 *                              free_initmem() unmaps and frees them;
 *   __PAGE_OFFSET + phys       the direct map of RAM, RW+NX; the alias of
 *                              the image's text and rodata is read-only, so
 *                              kernel text has no writable mapping at all;
 *   FIXADDR_START              fixmap slots (<asm/fixmap.h>);
 *   IOREMAP_START              uncached MMIO mappings;
 *   the AP trampoline's page   at its physical address, while APs start
 *                              (the only use of the lower half).
 *
 * The boot page tables (head_64.S) and the identity map die with the switch.
 * Every CPU runs on these same tables.
 */
#include <linux/kernel.h>
#include <linux/cpus_alone.h>
#include <linux/init.h>
#include <linux/irqflags.h>
#include <linux/mm.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <asm/fixmap.h>
#include <asm/pgtable.h>
#include <asm/processor.h>
#include <asm/setup.h>
#include <asm/text-sync.h>

#define IOREMAP_START 0xffffc90000000000UL
#define IOREMAP_SIZE (1UL << 30)
#define TABLE_PROT (_PAGE_PRESENT | _PAGE_RW)

static pteval_t *kernel_pgd;
static unsigned long ioremap_next = IOREMAP_START;
bool init_mem_available = true;

static unsigned int pt_index(unsigned long va, int level)
{
	return (va >> (PAGE_SHIFT + 9 * (level - 1))) & 511;
}

/* Frames holding page tables (the boot's included), for leak tests. */
static unsigned long page_table_frames;

pteval_t *kernel_pgd_table(void)
{
	return kernel_pgd;
}

unsigned long nr_page_table_frames(void)
{
	return __atomic_load_n(&page_table_frames, __ATOMIC_RELAXED);
}

/* A page-table frame (zeroed if asked), or 0; counted. */
static phys_addr_t pt_alloc(bool zeroed)
{
	phys_addr_t pa = zeroed ? alloc_zeroed_frame() : alloc_frame();

	if (pa)
		__atomic_fetch_add(&page_table_frames, 1, __ATOMIC_RELAXED);
	return pa;
}

static void pt_free(phys_addr_t pa)
{
	__atomic_fetch_sub(&page_table_frames, 1, __ATOMIC_RELAXED);
	free_frame(pa);
}

/*
 * The entry for va at level (1 = PTE, 2 = PMD), allocating missing tables
 * on the way down when alloc is set; NULL if a table is missing or a large
 * page is in the way.
 */
static pteval_t *walk(unsigned long va, int level, bool alloc)
{
	pteval_t *table = kernel_pgd;
	int l;

	for (l = 4; l > level; l--) {
		pteval_t *e = &table[pt_index(va, l)];

		if (!(*e & _PAGE_PRESENT)) {
			phys_addr_t pa = alloc ? pt_alloc(true) : 0;

			if (!pa)
				return NULL;
			*e = pa | TABLE_PROT;
		} else if (*e & _PAGE_PSE) {
			return NULL;
		}
		table = __va(*e & PTE_PFN_MASK);
	}
	return &table[pt_index(va, level)];
}

int map_kernel_range(unsigned long va, phys_addr_t pa, unsigned long size,
		     pteval_t prot, bool small)
{
	unsigned long end = va + size;

	while (va < end) {
		bool large = !small && IS_ALIGNED(va, PMD_SIZE) &&
			     IS_ALIGNED(pa, PMD_SIZE) && end - va >= PMD_SIZE;
		pteval_t *e = walk(va, large ? 2 : 1, true);
		unsigned long step = large ? PMD_SIZE : PAGE_SIZE;

		if (!e)
			return -ENOMEM;
		*e = pa | prot | (large ? _PAGE_PSE : 0);
		va += step;
		pa += step;
	}
	return 0;
}

pteval_t *lookup_pte(unsigned long va, bool *large)
{
	pteval_t *e = walk(va, 2, false);

	*large = false;
	if (!e || !(*e & _PAGE_PRESENT))
		return NULL;
	if (*e & _PAGE_PSE) {
		*large = true;
		return e;
	}
	e = walk(va, 1, false);
	return e && (*e & _PAGE_PRESENT) ? e : NULL;
}

bool direct_mapped(phys_addr_t pa, size_t len)
{
	phys_addr_t page;
	bool large;

	for (page = ALIGN_DOWN(pa, PAGE_SIZE); page < pa + len;
	     page += PAGE_SIZE)
		if (!lookup_pte((unsigned long)__va(page), &large))
			return false;
	return true;
}

struct flush_range {
	unsigned long start, end;
};

static void do_flush_tlb_range(void *info)
{
	struct flush_range *r = info;
	unsigned long va;

	for (va = ALIGN_DOWN(r->start, PAGE_SIZE); va < r->end; va += PAGE_SIZE)
		invlpg(va);
}

/*
 * One CPU online, none coming: a shootdown is this CPU's own flush, with
 * no cross-CPU call to set up (<linux/cpus_alone.h>).
 */
DEFINE_STATIC_KEY_CPUS_ALONE(flush_tlb_alone);

/* fn on this CPU, interrupts off, as on_each_cpu() runs it here. */
static noinline void flush_tlb_here(smp_call_func_t fn, void *info)
{
	unsigned long flags;

	local_irq_save(flags);
	fn(info);
	local_irq_restore(flags);
}

/*
 * fn on this CPU alone, or on this one and every other CPU in the
 * kernel: one that is idle or in user mode touches no mapping that may
 * change until it comes back in, and then flushes its whole TLB first
 * (text_sync_tlb_targets(), <asm/text-sync.h>).
 */
static void flush_tlb_everywhere(smp_call_func_t fn, void *info)
{
	struct cpumask cpus;

	if (static_branch_unlikely(&flush_tlb_alone)) {
		flush_tlb_here(fn, info);
		return;
	}
	preempt_disable();
	if (text_sync_tlb_targets(&cpus))
		smp_call_function_many(&cpus, fn, info, 1);
	flush_tlb_here(fn, info);
	preempt_enable();
}

/* Every CPU runs on these tables, so every CPU forgets the old entries. */
void flush_tlb_kernel_range(unsigned long start, unsigned long end)
{
	struct flush_range r = { start, end };

	flush_tlb_everywhere(do_flush_tlb_range, &r);
}

static void do_flush_tlb_all(void *unused)
{
	flush_tlb_local_all();
}

void flush_tlb_all(void)
{
	flush_tlb_everywhere(do_flush_tlb_all, NULL);
}

int set_memory_prot(unsigned long va, unsigned long npages, pteval_t prot)
{
	unsigned long i;
	bool large;

	for (i = 0; i < npages; i++) {
		pteval_t *e = lookup_pte(va + i * PAGE_SIZE, &large);

		if (!e || large)
			return -EINVAL;
		*e = (*e & PTE_PFN_MASK) | prot;
	}
	flush_tlb_kernel_range(va, va + npages * PAGE_SIZE);
	return 0;
}

/*
 * Splits the 2 MiB page of the direct map holding va into 512 4 KiB pages
 * of the same frames and protection: 0, or -ENOMEM. The translation of
 * every address stays the same, so CPUs may use the old or the new entry
 * meanwhile (the SDM allows changing the page size alone); the caller
 * flushes. The new table is never merged back.
 */
static int split_direct_map_page(unsigned long va)
{
	pteval_t *pmd = walk(va, 2, false), *table, prot;
	phys_addr_t pa, base;
	unsigned int i;

	if (!pmd || !(*pmd & _PAGE_PSE))
		return 0;
	pa = pt_alloc(false);
	if (!pa)
		return -ENOMEM;
	table = __va(pa);
	base = *pmd & PTE_PFN_MASK & ~(phys_addr_t)(PMD_SIZE - 1);
	prot = *pmd & ~PTE_PFN_MASK & ~_PAGE_PSE;
	for (i = 0; i < 512; i++)
		table[i] = (base + i * PAGE_SIZE) | prot;
	*pmd = pa | TABLE_PROT;
	return 0;
}

#define PROT_MASK (_PAGE_PRESENT | _PAGE_RW | _PAGE_NX)

/*
 * The direct-map alias of the frame mapped at va gets prot; its 2 MiB page
 * is split first unless it has prot already. 1 if an entry changed (the
 * caller flushes), 0 if none did, or -errno.
 */
static int set_alias_prot(unsigned long va, pteval_t prot)
{
	bool large;
	pteval_t *e = lookup_pte(va, &large), *alias;
	unsigned long a;

	if (!e || large)
		return -EINVAL;
	a = (unsigned long)__va(*e & PTE_PFN_MASK);
	alias = lookup_pte(a, &large);
	if (!alias)
		return -EINVAL;
	if ((*alias & PROT_MASK) == prot)
		return 0;
	if (large && split_direct_map_page(a))
		return -ENOMEM;
	alias = lookup_pte(a, &large);
	*alias = (*alias & PTE_PFN_MASK) | prot;
	return 1;
}

int set_memory_alias_prot(unsigned long va, unsigned long npages, pteval_t prot)
{
	unsigned long i;
	bool changed = false;
	int ret = 0;

	for (i = 0; i < npages && ret >= 0; i++) {
		ret = set_alias_prot(va + i * PAGE_SIZE, prot);
		changed |= ret > 0;
	}
	if (changed)
		flush_tlb_all();
	return ret < 0 ? ret : 0;
}

/*
 * Frees the page table mapping the 2 MiB block around va if it maps
 * nothing any more. The PMD entry is cleared and every CPU flushed (INVLPG
 * also drops paging-structure caches) before the frame can be reused.
 */
static void free_empty_pte_table(unsigned long va)
{
	pteval_t *pmd = walk(va, 2, false), *table;
	unsigned int i;

	if (!pmd || !(*pmd & _PAGE_PRESENT) || (*pmd & _PAGE_PSE))
		return;
	table = __va(*pmd & PTE_PFN_MASK);
	for (i = 0; i < 512; i++)
		if (table[i])
			return;
	*pmd = 0;
	flush_tlb_kernel_range(va, va + PAGE_SIZE);
	pt_free(__pa(table));
}

/*
 * Two passes, so that no frame is freed while a CPU may still reach it
 * through its TLB: the first clears the present bit of every entry but
 * keeps the frame number, then every CPU flushes, then the second frees
 * the frames and zeroes the entries. Needs no memory.
 */
void unmap_kernel_range_free(unsigned long va, unsigned long size)
{
	unsigned long end = va + size, a;
	pteval_t *e;

	for (a = va; a < end; a += PAGE_SIZE) {
		e = walk(a, 1, false);
		if (!WARN_ON_ONCE(!e || !(*e & _PAGE_PRESENT)))
			*e &= ~_PAGE_PRESENT;
	}
	flush_tlb_kernel_range(va, end);
	for (a = va; a < end; a += PAGE_SIZE) {
		e = walk(a, 1, false);
		if (e && *e) {
			free_frame(*e & PTE_PFN_MASK);
			*e = 0;
		}
	}
	for (a = ALIGN_DOWN(va, PMD_SIZE); a < end; a += PMD_SIZE)
		free_empty_pte_table(a);
}

/*
 * The PTE of a fixmap slot: its page table never moves once it exists,
 * so the walk is made once per slot (the text patcher maps a slot per
 * batch page). A race stores the same pointer twice.
 */
static pteval_t *fixmap_pte(enum fixed_addresses idx)
{
	static pteval_t *ptes[__end_of_fixed_addresses];
	pteval_t *e;

	BUG_ON(idx >= __end_of_fixed_addresses);
	e = READ_ONCE(ptes[idx]);
	if (unlikely(!e)) {
		e = walk(fix_to_virt(idx), 1, false);
		BUG_ON(!e);
		WRITE_ONCE(ptes[idx], e);
	}
	return e;
}

void *set_fixmap(enum fixed_addresses idx, phys_addr_t pa)
{
	unsigned long va = fix_to_virt(idx);
	pteval_t *e = fixmap_pte(idx);

	*e = (pa & PAGE_MASK) | PAGE_KERNEL;
	invlpg(va);
	return (void *)(va + (pa & ~PAGE_MASK));
}

void clear_fixmap(enum fixed_addresses idx)
{
	unsigned long va = fix_to_virt(idx);

	*fixmap_pte(idx) = 0;
	invlpg(va);
}

void *ioremap(phys_addr_t pa, unsigned long size)
{
	unsigned long off = pa & ~PAGE_MASK, va = ioremap_next;

	size = ALIGN(size + off, PAGE_SIZE);
	if (va + size > IOREMAP_START + IOREMAP_SIZE ||
	    map_kernel_range(va, pa - off, size, PAGE_KERNEL_NOCACHE, true))
		return NULL;
	ioremap_next += size;
	return (void *)(va + off);
}

int identity_map_low_page(phys_addr_t pa)
{
	if (WARN_ON(kernel_pgd[0] & _PAGE_PRESENT))
		return -EBUSY;
	return map_kernel_range(pa, pa, PAGE_SIZE, PAGE_KERNEL_EXEC, true);
}

/* Frees the table at pa, of the given level (1: PTEs), and those below. */
static void free_table(phys_addr_t pa, int level)
{
	pteval_t *table = __va(pa);
	int i;

	for (i = 0; level > 1 && i < 512; i++)
		if ((table[i] & _PAGE_PRESENT) && !(table[i] & _PAGE_PSE))
			free_table(table[i] & PTE_PFN_MASK, level - 1);
	pt_free(pa);
}

void identity_unmap_low_pages(void)
{
	pteval_t pml4e = kernel_pgd[0];

	if (!(pml4e & _PAGE_PRESENT))
		return;
	kernel_pgd[0] = 0;
	/* No CPU may walk the tables any more once their frames are reused. */
	flush_tlb_all();
	free_table(pml4e & PTE_PFN_MASK, 3);
}

static void __init map_image_section(void *start, void *end, pteval_t prot)
{
	unsigned long s = (unsigned long)start, e = (unsigned long)end;

	if (map_kernel_range(s, __pa_symbol(s), e - s, prot, true))
		panic("paging: out of memory mapping the kernel image");
}

/* Direct map of one memory-map range; 4 KiB pages near the image. */
static void __init map_direct(phys_addr_t base, phys_addr_t size)
{
	phys_addr_t image_end = ALIGN(__pa_symbol(_end), PMD_SIZE);
	phys_addr_t end = min(ALIGN(base + size, PAGE_SIZE), max_phys_addr());

	base = ALIGN_DOWN(base, PAGE_SIZE);
	while (base < end) {
		phys_addr_t split = base < image_end ? min(image_end, end) : end;

		if (map_kernel_range((unsigned long)__va(base), base, split - base,
				     PAGE_KERNEL, base < image_end))
			panic("paging: out of memory for the direct map");
		base = split;
	}
}

void __init paging_init(void)
{
	unsigned int i;

	kernel_pgd = __va(pt_alloc(true));
	BUG_ON(kernel_pgd == __va(0));
	map_image_section(_text, _etext, PAGE_KERNEL_EXEC);
	map_image_section(__start_rodata, __end_rodata, PAGE_KERNEL_RO);
	map_image_section(_sdata, _edata, PAGE_KERNEL);
	map_image_section(__init_text_begin, __init_text_end, PAGE_KERNEL_EXEC);
	map_image_section(__init_data_begin, __init_data_end, PAGE_KERNEL);
	map_image_section(__bss_start, __bss_stop, PAGE_KERNEL);

	map_direct(0, 1UL << 20); /* BIOS areas, later the AP trampoline */
	for (i = 0; i < boot_params.nr_e820; i++) {
		struct e820_entry *e = &boot_params.e820[i];

		if (e->type == E820_TYPE_RAM || e->type == E820_TYPE_ACPI ||
		    e->type == E820_TYPE_NVS)
			map_direct(e->addr, e->size);
	}
	/* No writable alias of text or rodata. */
	if (set_memory_prot((unsigned long)__va(__pa_symbol(_text)),
			    (__end_rodata - _text) >> PAGE_SHIFT, PAGE_KERNEL_RO))
		panic("paging: the image's direct-map alias is not in 4 KiB pages");
	if (!walk(FIXADDR_START, 1, true))
		panic("paging: out of memory for the fixmap");
	/*
	 * Every top-level entry of the kernel half exists from now on, so
	 * that a process's table, which copies them (user_pgd_alloc()),
	 * sees every later kernel mapping.
	 */
	for (i = 256; i < 512; i++)
		if (!(kernel_pgd[i] & _PAGE_PRESENT))
			kernel_pgd[i] = pt_alloc(true) | TABLE_PROT;
	write_cr3(__pa(kernel_pgd));
	pr_info("paging: kernel page tables live, %lu MiB direct-mapped\n",
		(unsigned long)(max_phys_addr() >> 20));
}

/* The image's pages in [start, end): unmap them and return the frames. */
static void __init unmap_and_free(void *start, void *end)
{
	unsigned long s = (unsigned long)start, e = (unsigned long)end, va;
	bool large;

	for (va = s; va < e; va += PAGE_SIZE) {
		pteval_t *pte = lookup_pte(va, &large);

		if (pte && !large)
			*pte = 0;
	}
	flush_tlb_kernel_range(s, e);
	free_frames(__pa_symbol(s), (e - s) >> PAGE_SHIFT);
	frame_grow((e - s) >> PAGE_SHIFT);
}

/*
 * Not __init: it runs after the init sections are gone. The caller must not
 * return into __init code afterwards.
 */
noinline void free_initmem(void)
{
	unsigned long kb = (__init_end - __init_begin) >> 10;

	unmap_and_free(__init_begin, __init_end);
	init_mem_available = false;
	pr_info("Freeing unused kernel image (initmem) memory: %luK\n", kb);
}

void mark_rodata_ro(void)
{
	unsigned long n = (__end_ro_after_init - __start_ro_after_init) >> PAGE_SHIFT;
	unsigned long alias = (unsigned long)__va(__pa_symbol(__start_ro_after_init));

	if (set_memory_prot((unsigned long)__start_ro_after_init, n, PAGE_KERNEL_RO) ||
	    set_memory_prot(alias, n, PAGE_KERNEL_RO))
		panic("mark_rodata_ro: ro_after_init is not in 4 KiB pages");
	pr_info("Write protecting the kernel read-only data: %luk\n",
		(unsigned long)(__end_rodata - __start_rodata + n * PAGE_SIZE) >> 10);
}
