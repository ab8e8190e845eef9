// SPDX-License-Identifier: GPL-2.0
/*
 * Process page tables: see <asm/user_pgtable.h>. Only the lower half
 * (entries 0..255 of the top level) is walked or freed here; the upper
 * half's entries are the kernel's, shared.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/string.h>
#include <asm/processor.h>
#include <asm/user_pgtable.h>

#define USER_TABLE_PROT (_PAGE_PRESENT | _PAGE_RW | _PAGE_USER)
#define USER_HALF 256

static unsigned long user_frames;

unsigned long nr_user_frames(void)
{
	return __atomic_load_n(&user_frames, __ATOMIC_RELAXED);
}

static phys_addr_t ut_alloc(void)
{
	phys_addr_t pa = alloc_zeroed_frame();

	if (pa)
		__atomic_fetch_add(&user_frames, 1, __ATOMIC_RELAXED);
	return pa;
}

static void ut_free(phys_addr_t pa)
{
	__atomic_fetch_sub(&user_frames, 1, __ATOMIC_RELAXED);
	free_frame(pa);
}

static unsigned int ut_index(unsigned long va, int level)
{
	return (va >> (PAGE_SHIFT + 9 * (level - 1))) & 511;
}

static pteval_t uprot_bits(unsigned int uprot)
{
	pteval_t v = _PAGE_PRESENT | _PAGE_USER;

	if (uprot & UPROT_WRITE)
		v |= _PAGE_RW;
	if (!(uprot & UPROT_EXEC))
		v |= _PAGE_NX;
	return v;
}

/* The PTE for va, allocating tables on the way if alloc; NULL otherwise. */
static pteval_t *ut_walk(phys_addr_t pgd, unsigned long va, bool alloc)
{
	pteval_t *table = __va(pgd);
	int l;

	for (l = 4; l > 1; l--) {
		pteval_t *e = &table[ut_index(va, l)];

		if (!(*e & _PAGE_PRESENT)) {
			phys_addr_t pa = alloc ? ut_alloc() : 0;

			if (!pa)
				return NULL;
			*e = pa | USER_TABLE_PROT;
		}
		table = __va(*e & PTE_PFN_MASK);
	}
	return &table[ut_index(va, 1)];
}

phys_addr_t user_pgd_alloc(void)
{
	phys_addr_t pa = ut_alloc();
	pteval_t *k = kernel_pgd_table(), *u;

	if (!pa)
		return 0;
	u = __va(pa);
	memcpy(&u[USER_HALF], &k[USER_HALF], USER_HALF * sizeof(*u));
	return pa;
}

/* Frees the table at pa of the given level (1: PTEs) and what it maps. */
static void ut_free_table(phys_addr_t pa, int level, unsigned int n)
{
	pteval_t *t = __va(pa);
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (!(t[i] & _PAGE_PRESENT))
			continue;
		if (level > 1)
			ut_free_table(t[i] & PTE_PFN_MASK, level - 1, 512);
		else
			ut_free(t[i] & PTE_PFN_MASK);
	}
	ut_free(pa);
}

void user_pgd_free(phys_addr_t pgd)
{
	if (WARN_ON_ONCE((read_cr3() & PTE_PFN_MASK) == pgd))
		return;
	ut_free_table(pgd, 4, USER_HALF);
}

int user_map_page(phys_addr_t pgd, unsigned long va, phys_addr_t pa,
		  unsigned int uprot)
{
	pteval_t *e;

	if (WARN_ON_ONCE(va >= USER_ADDR_END || !IS_ALIGNED(va, PAGE_SIZE)))
		return -EINVAL;
	e = ut_walk(pgd, va, true);
	if (!e)
		return -ENOMEM;
	if (*e & _PAGE_PRESENT)
		return -EEXIST;
	*e = pa | uprot_bits(uprot);
	/* Counted as a user frame from now on: user_pgd_free() frees it. */
	__atomic_fetch_add(&user_frames, 1, __ATOMIC_RELAXED);
	return 0;
}

phys_addr_t user_lookup(phys_addr_t pgd, unsigned long va, unsigned int *uprot)
{
	pteval_t *e = va < USER_ADDR_END ? ut_walk(pgd, va, false) : NULL;

	if (!e || !(*e & _PAGE_PRESENT))
		return 0;
	if (uprot)
		*uprot = UPROT_READ | (*e & _PAGE_RW ? UPROT_WRITE : 0) |
			 (*e & _PAGE_NX ? 0 : UPROT_EXEC);
	return *e & PTE_PFN_MASK;
}

phys_addr_t user_clear_page(phys_addr_t pgd, unsigned long va)
{
	pteval_t *e = va < USER_ADDR_END ? ut_walk(pgd, va, false) : NULL;
	phys_addr_t pa;

	if (!e || !(*e & _PAGE_PRESENT))
		return 0;
	pa = *e & PTE_PFN_MASK;
	*e = 0;
	return pa;
}

void user_free_frame(phys_addr_t pa)
{
	ut_free(pa);
}

unsigned long user_next_mapped(phys_addr_t pgd, unsigned long va,
			       unsigned long end)
{
	while (va < end && va < USER_ADDR_END) {
		pteval_t *table = __va(pgd), e = 0;
		unsigned long span = 0;
		int l;

		for (l = 4; l >= 1; l--) {
			e = table[ut_index(va, l)];
			span = 1UL << (PAGE_SHIFT + 9 * (l - 1));
			if (!(e & _PAGE_PRESENT) || l == 1)
				break;
			table = __va(e & PTE_PFN_MASK);
		}
		if (e & _PAGE_PRESENT)
			return va;
		va = (va & ~(span - 1)) + span;
	}
	return end;
}

int user_protect_page(phys_addr_t pgd, unsigned long va, unsigned int uprot)
{
	pteval_t *e = va < USER_ADDR_END ? ut_walk(pgd, va, false) : NULL;

	if (!e || !(*e & _PAGE_PRESENT))
		return -ENOMEM;
	*e = (*e & PTE_PFN_MASK) | uprot_bits(uprot);
	return 0;
}

/* Copies src's table of the given level at index base into dst. */
static int ut_copy(phys_addr_t dst, phys_addr_t src, int level,
		   unsigned long base)
{
	pteval_t *s = __va(src);
	unsigned int i, n = level == 4 ? USER_HALF : 512;

	for (i = 0; i < n; i++) {
		unsigned long va = base + ((unsigned long)i
					   << (PAGE_SHIFT + 9 * (level - 1)));
		phys_addr_t pa;
		pteval_t *e;
		int ret;

		if (!(s[i] & _PAGE_PRESENT))
			continue;
		if (level > 1) {
			ret = ut_copy(dst, s[i] & PTE_PFN_MASK, level - 1, va);
			if (ret)
				return ret;
			continue;
		}
		pa = alloc_frame();
		if (!pa)
			return -ENOMEM;
		memcpy(__va(pa), __va(s[i] & PTE_PFN_MASK), PAGE_SIZE);
		e = ut_walk(dst, va, true);
		if (!e) {
			free_frame(pa);
			return -ENOMEM;
		}
		*e = pa |
		     (s[i] & ~PTE_PFN_MASK & ~(_PAGE_ACCESSED | _PAGE_DIRTY));
		__atomic_fetch_add(&user_frames, 1, __ATOMIC_RELAXED);
	}
	return 0;
}

int user_pgd_copy(phys_addr_t dst, phys_addr_t src)
{
	return ut_copy(dst, src, 4, 0);
}
