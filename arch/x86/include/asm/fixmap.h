/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_FIXMAP_H
#define _ASM_X86_FIXMAP_H

#include <linux/threads.h>
#include <linux/types.h>
#include <asm/page.h>

/*
 * Fixed virtual pages whose mapping is changed at run time: the temporary
 * writable aliases text_poke uses, two a CPU for the int3 handler's
 * rewrite of a stale int3 (text_patch.c: one outside NMIs, one in them),
 * and one for tests. Each slot is one page at fix_to_virt(idx); its page
 * table exists from paging_init() on (one table: 512 slots), so
 * set_fixmap() never allocates.
 */
enum fixed_addresses {
	FIX_TEXT_POKE0,
	FIX_TEXT_POKE1,
	FIX_TEST,
	FIX_INT3_REWRITE0,
	FIX_INT3_REWRITE_LAST = FIX_INT3_REWRITE0 + 2 * NR_CPUS - 1,
	__end_of_fixed_addresses
};

#define FIXADDR_START 0xffffffffff000000UL
#define fix_to_virt(idx) (FIXADDR_START + ((unsigned long)(idx) << PAGE_SHIFT))

/* Maps the page holding pa, writable and NX, at the slot; returns the
 * address of pa within it. clear_fixmap() unmaps and flushes. */
void *set_fixmap(enum fixed_addresses idx, phys_addr_t pa);
void clear_fixmap(enum fixed_addresses idx);

#endif /* _ASM_X86_FIXMAP_H */
