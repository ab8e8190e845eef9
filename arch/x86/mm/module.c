// SPDX-License-Identifier: GPL-2.0
/*
 * The module area: address space for module memory, MODULES_VADDR to
 * MODULES_END, handed out in pages, first fit, from a bitmap. Each
 * allocation is followed by one unmapped guard page, and the area's first
 * page is a guard too, so a module overrunning a region faults instead of
 * reaching its neighbour. Nothing else maps into the area: the kernel
 * image ends below MODULES_VADDR (checked at boot) and the fixmap starts
 * at MODULES_END.
 *
 * area_lock covers the bitmap only; the mapping itself needs no lock,
 * since no two callers own the same pages (callers serialize on
 * module_mutex anyway, which keeps two of them from filling the same
 * missing page table at once).
 */
#include <linux/kernel.h>
#include <linux/init.h>
#include <linux/mm.h>
#include <linux/spinlock.h>
#include <asm/module.h>
#include <asm/pgtable.h>
#include <asm/setup.h>

#define AREA_PAGES ((MODULES_END - MODULES_VADDR) >> PAGE_SHIFT)

static unsigned long area_map[AREA_PAGES / BITS_PER_LONG];
static unsigned long area_used;
static DEFINE_SPINLOCK(area_lock);

static bool page_used(unsigned long i)
{
	return area_map[i / BITS_PER_LONG] & (1UL << (i % BITS_PER_LONG));
}

static void mark(unsigned long first, unsigned long n, bool used)
{
	unsigned long i;

	for (i = first; i < first + n; i++) {
		if (used)
			area_map[i / BITS_PER_LONG] |= 1UL
						       << (i % BITS_PER_LONG);
		else
			area_map[i / BITS_PER_LONG] &=
				~(1UL << (i % BITS_PER_LONG));
	}
	area_used = used ? area_used + n : area_used - n;
}

/* The first page of a free run of n pages (page 0 stays a guard), or 0. */
static unsigned long area_get(unsigned long n)
{
	unsigned long i, run = 0, flags, first = 0;

	spin_lock_irqsave(&area_lock, flags);
	for (i = 1; i < AREA_PAGES; i++) {
		run = page_used(i) ? 0 : run + 1;
		if (run == n) {
			first = i - n + 1;
			mark(first, n, true);
			break;
		}
	}
	spin_unlock_irqrestore(&area_lock, flags);
	return first;
}

static void area_put(unsigned long first, unsigned long n)
{
	unsigned long flags;

	spin_lock_irqsave(&area_lock, flags);
	mark(first, n, false);
	spin_unlock_irqrestore(&area_lock, flags);
}

unsigned long module_area_pages_used(void)
{
	return READ_ONCE(area_used);
}

/* Maps npages fresh zeroed frames at va; on failure unmaps what it did. */
static int map_fresh_pages(unsigned long va, unsigned long npages)
{
	unsigned long i;

	for (i = 0; i < npages; i++) {
		phys_addr_t pa = alloc_zeroed_frame();

		if (!pa || map_kernel_range(va + i * PAGE_SIZE, pa, PAGE_SIZE,
					    PAGE_KERNEL, true)) {
			if (pa)
				free_frame(pa);
			if (i)
				unmap_kernel_range_free(va, i * PAGE_SIZE);
			return -ENOMEM;
		}
	}
	return 0;
}

void *module_alloc(unsigned long size)
{
	unsigned long npages = DIV_ROUND_UP(size, PAGE_SIZE), first, va;

	if (!npages || npages >= AREA_PAGES)
		return NULL;
	first = area_get(npages + 1); /* the last page is the guard */
	if (!first)
		return NULL;
	va = MODULES_VADDR + (first << PAGE_SHIFT);
	if (map_fresh_pages(va, npages)) {
		area_put(first, npages + 1);
		return NULL;
	}
	return (void *)va;
}

void module_memfree(void *addr, unsigned long size)
{
	unsigned long va = (unsigned long)addr;
	unsigned long npages = DIV_ROUND_UP(size, PAGE_SIZE);

	if (!addr)
		return;
	if (WARN(!within_module_area(va) || !IS_ALIGNED(va, PAGE_SIZE) ||
			 !npages,
		 "module_memfree: bad range %#lx + %#lx\n", va, size))
		return;
	/* The frames go back writable through the direct map, as they came. */
	WARN_ON(set_memory_alias_prot(va, npages, PAGE_KERNEL));
	unmap_kernel_range_free(va, npages * PAGE_SIZE);
	area_put((va - MODULES_VADDR) >> PAGE_SHIFT, npages + 1);
}

static int __init module_area_init(void)
{
	BUG_ON((unsigned long)_end > MODULES_VADDR);
	return 0;
}
early_initcall(module_area_init);
