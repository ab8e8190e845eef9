// SPDX-License-Identifier: GPL-2.0
/*
 * Address spaces of processes and the system calls that change them:
 * brk, mmap (anonymous, private), munmap, mprotect. Pages are allocated
 * and zeroed when mapped (no demand paging), so a user page fault is
 * always the program's error. mmap puts a mapping at its hint if that
 * range is free, else in the highest free range below USER_MMAP_TOP (a
 * range munmap gave back is found again).
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/process.h>
#include <linux/syscalls.h>
#include <linux/slab.h>
#include <asm/pgtable.h>
#include <asm/processor.h>
#include <asm/user_pgtable.h>

#define PROT_READ 0x1
#define PROT_WRITE 0x2
#define PROT_EXEC 0x4
#define MAP_SHARED 0x01
#define MAP_PRIVATE 0x02
#define MAP_FIXED 0x10
#define MAP_ANONYMOUS 0x20
#define MAP_FIXED_NOREPLACE 0x100000

struct mm_struct *mm_alloc(void)
{
	struct mm_struct *mm = kzalloc(sizeof(*mm), GFP_KERNEL);

	if (!mm)
		return NULL;
	mm->pgd = user_pgd_alloc();
	if (!mm->pgd) {
		kfree(mm);
		return NULL;
	}
	mm->mmap_next = USER_MMAP_TOP;
	return mm;
}

void mm_free(struct mm_struct *mm)
{
	user_pgd_free(mm->pgd);
	kfree(mm);
}

struct mm_struct *mm_copy(struct mm_struct *old)
{
	struct mm_struct *mm = mm_alloc();

	if (!mm)
		return NULL;
	if (user_pgd_copy(mm->pgd, old->pgd)) {
		mm_free(mm);
		return NULL;
	}
	mm->start_brk = old->start_brk;
	mm->brk = old->brk;
	mm->mmap_next = old->mmap_next;
	mm->nr_pages = old->nr_pages;
	return mm;
}

int mm_map_anon(struct mm_struct *mm, unsigned long start, unsigned long end,
		unsigned int uprot)
{
	unsigned long va;

	for (va = start; va < end; va += PAGE_SIZE) {
		phys_addr_t pa = alloc_zeroed_frame();

		if (!pa || user_map_page(mm->pgd, va, pa, uprot)) {
			if (pa)
				free_frame(pa);
			mm_unmap(mm, start, va);
			return -ENOMEM;
		}
		mm->nr_pages++;
	}
	return 0;
}

/*
 * Flushes this CPU: the mm is the current one (or not loaded at all).
 * Only mapped pages cost: the user half unmapped takes a few hundred
 * table looks, not a walk of 2^35 pages.
 */
void mm_unmap(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	unsigned long va;

	for (va = user_next_mapped(mm->pgd, start, end); va < end;
	     va = user_next_mapped(mm->pgd, va + PAGE_SIZE, end)) {
		if (user_unmap_page(mm->pgd, va)) {
			mm->nr_pages--;
			invlpg(va);
		}
	}
}

static bool range_free(struct mm_struct *mm, unsigned long start,
		       unsigned long len)
{
	return user_next_mapped(mm->pgd, start, start + len) == start + len;
}

/*
 * Where a mapping of len bytes goes without MAP_FIXED: at the hint if
 * that range is free, else the highest free range below USER_MMAP_TOP
 * and above the heap's room (as Linux's top-down search): 0 if none.
 */
static unsigned long mm_find_hole(struct mm_struct *mm, unsigned long hint,
				  unsigned long len)
{
	unsigned long floor = mm->brk + USER_MAP_MAX, start, va;

	if (hint >= PAGE_SIZE && hint < USER_ADDR_END &&
	    len <= USER_ADDR_END - hint && range_free(mm, hint, len))
		return hint;
	start = USER_MMAP_TOP - len;
	while (start >= floor && start < USER_MMAP_TOP) {
		va = user_next_mapped(mm->pgd, start, start + len);
		if (va == start + len)
			return start;
		start = va - len; /* below the page in the way */
	}
	return 0;
}

static bool range_ok(unsigned long addr, unsigned long len)
{
	return addr < USER_ADDR_END && len <= USER_ADDR_END - addr;
}

long sys_brk(unsigned long brk)
{
	struct mm_struct *mm = current_process()->mm;
	unsigned long old = ALIGN(mm->brk, PAGE_SIZE), new;

	if (brk < mm->start_brk || !range_ok(brk, 0) ||
	    brk - mm->start_brk > USER_MAP_MAX)
		return mm->brk;
	new = ALIGN(brk, PAGE_SIZE);
	if (new > old && mm_map_anon(mm, old, new, UPROT_READ | UPROT_WRITE))
		return mm->brk;
	if (new < old)
		mm_unmap(mm, new, old);
	mm->brk = brk;
	return brk;
}

static unsigned int prot_to_uprot(unsigned long prot)
{
	return (prot & PROT_READ ? UPROT_READ : 0) |
	       (prot & PROT_WRITE ? UPROT_WRITE | UPROT_READ : 0) |
	       (prot & PROT_EXEC ? UPROT_EXEC | UPROT_READ : 0);
}

long sys_mmap(unsigned long addr, unsigned long len, unsigned long prot,
	      unsigned long flags, unsigned long fd, unsigned long off)
{
	struct mm_struct *mm = current_process()->mm;
	unsigned long start;
	int ret;

	if (!len || (addr & ~PAGE_MASK) || (prot & ~7UL))
		return -EINVAL;
	if (!(flags & MAP_ANONYMOUS) || (flags & MAP_SHARED) ||
	    !(flags & MAP_PRIVATE))
		return -ENODEV; /* no file mappings, no shared memory */
	if ((prot & PROT_WRITE) && (prot & PROT_EXEC))
		return -EACCES; /* W^X */
	/* A length that wraps when rounded up is -ENOMEM, as Linux's. */
	if (len > USER_MAP_MAX)
		return -ENOMEM;
	len = ALIGN(len, PAGE_SIZE);
	if (flags & (MAP_FIXED | MAP_FIXED_NOREPLACE)) {
		if (addr < PAGE_SIZE)
			return -EINVAL; /* page 0 is never mapped */
		if (!range_ok(addr, len))
			return -ENOMEM;
		start = addr;
		if (flags & MAP_FIXED)
			mm_unmap(mm, start, start + len);
		else if (!range_free(mm, start, len))
			return -EEXIST;
	} else {
		start = mm_find_hole(mm, addr, len);
		if (!start)
			return -ENOMEM;
	}
	ret = mm_map_anon(mm, start, start + len, prot_to_uprot(prot));
	if (ret)
		return ret;
	return start;
}

long sys_munmap(unsigned long addr, unsigned long len)
{
	if ((addr & ~PAGE_MASK) || !len || !range_ok(addr, len))
		return -EINVAL;
	mm_unmap(current_process()->mm, addr, addr + ALIGN(len, PAGE_SIZE));
	return 0;
}

long sys_mprotect(unsigned long addr, unsigned long len, unsigned long prot)
{
	struct mm_struct *mm = current_process()->mm;
	unsigned long va, end;

	if ((addr & ~PAGE_MASK) || (prot & ~7UL))
		return -EINVAL;
	if (!range_ok(addr, len))
		return -ENOMEM; /* no mapping there, as Linux */
	if ((prot & PROT_WRITE) && (prot & PROT_EXEC))
		return -EACCES;
	end = addr + ALIGN(len, PAGE_SIZE);
	for (va = addr; va < end; va += PAGE_SIZE)
		if (!user_lookup(mm->pgd, va, NULL))
			return -ENOMEM;
	for (va = addr; va < end; va += PAGE_SIZE) {
		/* PROT_NONE stays readable: no such page protection here. */
		user_protect_page(mm->pgd, va,
				  prot_to_uprot(prot) | UPROT_READ);
		invlpg(va);
	}
	return 0;
}
