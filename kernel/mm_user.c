// SPDX-License-Identifier: GPL-2.0
/*
 * Address spaces of processes and the system calls that change them:
 * brk, mmap (anonymous, private), munmap, mprotect. Pages are allocated
 * and zeroed when mapped (no demand paging), so a user page fault is
 * always the program's error. mmap puts a mapping at its hint if that
 * range is free, else in the highest free range below USER_MMAP_TOP (a
 * range munmap gave back is found again).
 *
 * The threads of a process share its mm: the calls take mm->lock, and
 * a mapping removed or narrowed is flushed from every CPU that has the
 * page tables loaded (mm_flush_tlb()) before its frames are freed, so no
 * thread on another CPU keeps reaching a freed frame through its TLB.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/process.h>
#include <linux/syscalls.h>
#include <linux/slab.h>
#include <linux/smp.h>
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
	mutex_init(&mm->lock);
	mm->mmap_next = USER_MMAP_TOP;
	return mm;
}

DECLARE_PER_CPU(struct mm_struct *, cpu_user_mm);

static void mm_flush_this_cpu(void *info)
{
	if (this_cpu_read(cpu_user_mm) == info)
		write_cr3(read_cr3());
}

/*
 * The CPUs that have mm loaded now: a CPU that loads it later walks the
 * page tables as they are after the change (it sets cpu_user_mm before
 * loading CR3, and the change was written before this look).
 */
void mm_flush_tlb(struct mm_struct *mm)
{
	struct cpumask mask;
	unsigned int cpu, me;

	cpumask_clear(&mask);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	preempt_disable();
	me = smp_processor_id();
	mm_flush_this_cpu(mm);
	for_each_online_cpu(cpu)
		if (cpu != me && READ_ONCE(per_cpu(cpu_user_mm, cpu)) == mm)
			cpumask_set_cpu(cpu, &mask);
	preempt_enable();
	if (cpumask_weight(&mask))
		smp_call_function_many(&mask, mm_flush_this_cpu, mm, 1);
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
	mm->hiwater_pages = old->nr_pages;
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
	mm->hiwater_pages = max(mm->hiwater_pages, mm->nr_pages);
	return 0;
}

#define UNMAP_BATCH 32

/* Flushes the batch's pages from every CPU that has mm, then frees them. */
static void unmap_batch_free(struct mm_struct *mm, phys_addr_t *batch,
			     unsigned int n)
{
	unsigned int i;

	mm_flush_tlb(mm);
	for (i = 0; i < n; i++)
		user_free_frame(batch[i]);
}

/*
 * Unmaps [start, end): a batch of pages at a time is taken out of the
 * page tables, flushed from every CPU that has mm loaded, then freed.
 * Only mapped pages cost: the user half unmapped takes a few hundred
 * table looks, not a walk of 2^35 pages.
 */
void mm_unmap(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	phys_addr_t batch[UNMAP_BATCH];
	unsigned int n = 0;
	unsigned long va;

	for (va = user_next_mapped(mm->pgd, start, end); va < end;
	     va = user_next_mapped(mm->pgd, va + PAGE_SIZE, end)) {
		phys_addr_t pa = user_clear_page(mm->pgd, va);

		if (!pa)
			continue;
		mm->nr_pages--;
		batch[n++] = pa;
		if (n == UNMAP_BATCH) {
			unmap_batch_free(mm, batch, n);
			n = 0;
		}
	}
	if (n)
		unmap_batch_free(mm, batch, n);
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

static long __sys_brk(struct mm_struct *mm, unsigned long brk)
{
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

long sys_brk(unsigned long brk)
{
	struct mm_struct *mm = current_process()->mm;
	long ret;

	mutex_lock(&mm->lock);
	ret = __sys_brk(mm, brk);
	mutex_unlock(&mm->lock);
	return ret;
}

static unsigned int prot_to_uprot(unsigned long prot)
{
	return (prot & PROT_READ ? UPROT_READ : 0) |
	       (prot & PROT_WRITE ? UPROT_WRITE | UPROT_READ : 0) |
	       (prot & PROT_EXEC ? UPROT_EXEC | UPROT_READ : 0);
}

static long __sys_mmap(struct mm_struct *mm, unsigned long addr,
		       unsigned long len, unsigned long prot,
		       unsigned long flags)
{
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

long sys_mmap(unsigned long addr, unsigned long len, unsigned long prot,
	      unsigned long flags, unsigned long fd, unsigned long off)
{
	struct mm_struct *mm = current_process()->mm;
	long ret;

	mutex_lock(&mm->lock);
	ret = __sys_mmap(mm, addr, len, prot, flags);
	mutex_unlock(&mm->lock);
	return ret;
}

long sys_munmap(unsigned long addr, unsigned long len)
{
	struct mm_struct *mm = current_process()->mm;

	if ((addr & ~PAGE_MASK) || !len || !range_ok(addr, len))
		return -EINVAL;
	mutex_lock(&mm->lock);
	mm_unmap(mm, addr, addr + ALIGN(len, PAGE_SIZE));
	mutex_unlock(&mm->lock);
	return 0;
}

static long __sys_mprotect(struct mm_struct *mm, unsigned long addr,
			   unsigned long len, unsigned long prot)
{
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
	}
	mm_flush_tlb(mm);
	return 0;
}

long sys_mprotect(unsigned long addr, unsigned long len, unsigned long prot)
{
	struct mm_struct *mm = current_process()->mm;
	long ret;

	mutex_lock(&mm->lock);
	ret = __sys_mprotect(mm, addr, len, prot);
	mutex_unlock(&mm->lock);
	return ret;
}
