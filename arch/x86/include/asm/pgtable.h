/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_PGTABLE_H
#define _ASM_X86_PGTABLE_H

#include <linux/types.h>
#include <asm/page.h>

typedef u64 pteval_t;

#define _PAGE_PRESENT (1ULL << 0)
#define _PAGE_RW (1ULL << 1)
#define _PAGE_USER (1ULL << 2)
#define _PAGE_PWT (1ULL << 3)
#define _PAGE_PCD (1ULL << 4)
#define _PAGE_ACCESSED (1ULL << 5)
#define _PAGE_DIRTY (1ULL << 6)
#define _PAGE_PSE (1ULL << 7)
#define _PAGE_GLOBAL (1ULL << 8)
#define _PAGE_NX (1ULL << 63)
#define PTE_PFN_MASK 0x000ffffffffff000ULL

/* Protections for the kernel's own mappings: W^X throughout. */
#define PAGE_KERNEL_EXEC (_PAGE_PRESENT)
#define PAGE_KERNEL_RO (_PAGE_PRESENT | _PAGE_NX)
#define PAGE_KERNEL (_PAGE_PRESENT | _PAGE_RW | _PAGE_NX)
#define PAGE_KERNEL_NOCACHE (PAGE_KERNEL | _PAGE_PCD | _PAGE_PWT)

#define PMD_SIZE (1UL << 21)

/*
 * The module area (arch/x86/mm/module.c), as in Linux: above the kernel
 * image's 512 MiB and below the fixmap, so that every module address is
 * within 2 GiB of the kernel and of every other module (32-bit
 * relocations, -mcmodel=kernel).
 */
#define MODULES_VADDR 0xffffffffa0000000UL
#define MODULES_END 0xffffffffff000000UL /* FIXADDR_START */

/*
 * Map [va, va + size) to [pa, pa + size) with prot, using 2 MiB pages where
 * both addresses are aligned unless small is set. Returns 0 or -ENOMEM.
 */
int map_kernel_range(unsigned long va, phys_addr_t pa, unsigned long size,
		     pteval_t prot, bool small);
/* The last-level entry mapping va, or NULL; *large is set for a 2 MiB page. */
pteval_t *lookup_pte(unsigned long va, bool *large);
/* Whether the direct map covers every byte of [pa, pa + len). */
bool direct_mapped(phys_addr_t pa, size_t len);
/* Changes the protection of 4 KiB-mapped pages; -EINVAL if one isn't. */
int set_memory_prot(unsigned long va, unsigned long npages, pteval_t prot);
/* On every online CPU, waiting for all: the range, or the whole TLB. */
void flush_tlb_kernel_range(unsigned long start, unsigned long end);
void flush_tlb_all(void);
/*
 * Gives the direct-map alias (__va() of the frame) of each of the npages
 * 4 KiB pages mapped at va the protection prot, splitting 2 MiB pages of
 * the direct map as needed, then flushes every CPU: 0, -EINVAL (a page
 * not mapped in 4 KiB pages) or -ENOMEM. So that a mapping made read-only
 * (module text, rodata) has no writable alias, as the image's text has
 * none.
 */
int set_memory_alias_prot(unsigned long va, unsigned long npages, pteval_t prot);
/*
 * Unmaps [va, va + size) (4 KiB pages, all mapped), flushes every CPU's
 * TLB, then frees the frames and the page tables left empty. For mappings
 * whose frames came from the frame allocator.
 */
void unmap_kernel_range_free(unsigned long va, unsigned long size);
/* MMIO: maps size bytes at pa uncached and returns the address. */
void *ioremap(phys_addr_t pa, unsigned long size);

/*
 * The lower half of the address space is empty but for this: the page at
 * pa (below 4 GiB) mapped read-only and executable at virtual address pa,
 * for the APs' trampoline. identity_unmap_low_pages() removes it, flushes
 * every CPU's TLB and frees the page tables the mapping needed.
 */
int identity_map_low_page(phys_addr_t pa);
void identity_unmap_low_pages(void);

void paging_init(void);
/* The kernel's top-level table: its upper half is every process's too. */
pteval_t *kernel_pgd_table(void);
/* Frames that hold page tables now: a leak test adds them to the free ones. */
unsigned long nr_page_table_frames(void);

#endif /* _ASM_X86_PGTABLE_H */
