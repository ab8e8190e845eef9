/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_MODULE_H
#define _ASM_X86_MODULE_H

#include <linux/types.h>
#include <asm/pgtable.h>

/*
 * The module area, MODULES_VADDR..MODULES_END (<asm/pgtable.h>).
 * module_alloc(): size bytes, rounded up to pages, of zeroed memory mapped
 * RW NX in 4 KiB pages of their own frames, with an unmapped guard page
 * after them (and before the first); NULL when the area or memory runs
 * out. module_memfree() takes the same size, unmaps on every CPU and
 * frees the frames and the address range. Both may sleep (TLB flush IPIs).
 */
void *module_alloc(unsigned long size);
void module_memfree(void *addr, unsigned long size);
/* Pages of the area taken (guards included), for leak tests. */
unsigned long module_area_pages_used(void);

static inline bool within_module_area(unsigned long addr)
{
	return addr >= MODULES_VADDR && addr < MODULES_END;
}

#endif /* _ASM_X86_MODULE_H */
