/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_MM_H
#define _LINUX_MM_H

#include <linux/types.h>
#include <asm/page.h>

/*
 * The physical frame allocator: one bit per 4 KiB frame below
 * CONFIG_PHYS_MEM_MAX_MB. Frames are reached through the direct map
 * (__va()). 0 is never a valid frame, so it means failure.
 */
void frame_init(void);
phys_addr_t frame_add_ram(phys_addr_t base, phys_addr_t size);
void frame_reserve(phys_addr_t base, phys_addr_t size);
phys_addr_t alloc_frames(unsigned long n);
void free_frames(phys_addr_t pa, unsigned long n);
void frame_grow(unsigned long n);
unsigned long nr_free_frames(void);
unsigned long frames_free_in(phys_addr_t base, phys_addr_t size);
unsigned long nr_total_frames(void);
phys_addr_t max_phys_addr(void);

static inline phys_addr_t alloc_frame(void)
{
	return alloc_frames(1);
}

static inline void free_frame(phys_addr_t pa)
{
	free_frames(pa, 1);
}

/* A zeroed frame, or 0. */
phys_addr_t alloc_zeroed_frame(void);

#endif /* _LINUX_MM_H */
