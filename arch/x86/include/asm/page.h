/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_PAGE_H
#define _ASM_X86_PAGE_H

#define PAGE_SHIFT 12
#ifdef __ASSEMBLY__
#define PAGE_SIZE (1 << PAGE_SHIFT)
#else
#define PAGE_SIZE (1UL << PAGE_SHIFT)
#define PAGE_MASK (~(PAGE_SIZE - 1))
#endif

/* The image runs at KERNEL_VIRT_BASE + physical address (the top 2 GiB). */
#define __KERNEL_VIRT_BASE 0xffffffff80000000
#define __KERNEL_PHYS_LOAD 0x100000
/* All of RAM is mapped, NX, at PAGE_OFFSET + physical address. */
#define __PAGE_OFFSET 0xffff888000000000

#ifndef __ASSEMBLY__
#include <linux/types.h>

#define KERNEL_VIRT_BASE ((unsigned long)__KERNEL_VIRT_BASE)
#define PAGE_OFFSET ((unsigned long)__PAGE_OFFSET)

static inline void *__va(phys_addr_t pa)
{
	return (void *)(unsigned long)(pa + PAGE_OFFSET);
}

static inline phys_addr_t __pa(const void *va)
{
	unsigned long v = (unsigned long)va;

	if (v >= KERNEL_VIRT_BASE)
		return v - KERNEL_VIRT_BASE;
	return v - PAGE_OFFSET;
}

/* The physical address of a symbol in the kernel image. */
#define __pa_symbol(x) ((phys_addr_t)((unsigned long)(x) - KERNEL_VIRT_BASE))
#endif

#endif /* _ASM_X86_PAGE_H */
