/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_USER_PGTABLE_H
#define _ASM_X86_USER_PGTABLE_H

/*
 * A process's page tables (arch/x86/mm/user_pgtable.c): a top-level table
 * whose lower half is the process's own and whose upper half is a copy of
 * the kernel's entries (every one exists from paging_init() on, so the
 * copy never goes stale). User pages carry _PAGE_USER, are never both
 * writable and executable, and are NX unless executable.
 */
#include <linux/types.h>
#include <asm/pgtable.h>

/* The end of user addresses (Linux's TASK_SIZE_MAX, one guard page short). */
#define USER_ADDR_END 0x00007ffffffff000UL

/* Protections a user page may have: the PROT_* of mmap(). */
#define UPROT_READ 0x1
#define UPROT_WRITE 0x2
#define UPROT_EXEC 0x4

/* A new table (the kernel half filled in): its physical address, or 0. */
phys_addr_t user_pgd_alloc(void);
/* Frees every user frame it maps, its tables and itself. Not loaded. */
void user_pgd_free(phys_addr_t pgd);
/*
 * Maps the zeroed frame pa at va (page-aligned, below USER_ADDR_END) with
 * uprot: 0, -ENOMEM (a table), -EEXIST (va is mapped already).
 */
int user_map_page(phys_addr_t pgd, unsigned long va, phys_addr_t pa,
		  unsigned int uprot);
/* The frame mapped at va and its protection (if uprot), or 0. */
phys_addr_t user_lookup(phys_addr_t pgd, unsigned long va, unsigned int *uprot);
/*
 * The first mapped page in [va, end) (va page-aligned), or end: absent
 * tables are skipped whole, so an empty range costs a walk per table.
 */
unsigned long user_next_mapped(phys_addr_t pgd, unsigned long va,
			       unsigned long end);
/*
 * Takes va's page out of the table without freeing it: its frame (for
 * user_free_frame() once no TLB holds it), or 0 if none was mapped.
 */
phys_addr_t user_clear_page(phys_addr_t pgd, unsigned long va);
void user_free_frame(phys_addr_t pa);
/* Gives the page at va the protection uprot: -ENOMEM if not mapped. */
int user_protect_page(phys_addr_t pgd, unsigned long va, unsigned int uprot);
/* Copies every user page of src into fresh frames under dst: 0 or -ENOMEM. */
int user_pgd_copy(phys_addr_t dst, phys_addr_t src);
/* Frames of user pages and user page tables now allocated (leak tests). */
unsigned long nr_user_frames(void);

#endif /* _ASM_X86_USER_PGTABLE_H */
