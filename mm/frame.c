// SPDX-License-Identifier: GPL-2.0
/*
 * Physical frames: a bitmap with one bit per 4 KiB frame, set when the frame
 * is free. Everything starts used (the bitmap is in .bss); the boot code
 * frees the RAM ranges of the memory map and then re-reserves what is taken
 * (the first MiB, the kernel image). A run of frames is first fit from a
 * rotating hint; a single frame is the lowest free one (low_hint: no frame
 * below it is free), so that the many long-lived single frames (page
 * tables, kmalloc's pages) pack at the bottom instead of spreading over
 * memory and breaking up the runs large blocks need. frame_lock
 * (interrupts disabled) covers the bitmap, the counts and the hints.
 */
#include <linux/kernel.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/mm.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#define MAX_FRAMES ((unsigned long)CONFIG_PHYS_MEM_MAX_MB << (20 - PAGE_SHIFT))

static unsigned long frame_free_map[MAX_FRAMES / BITS_PER_LONG];
static unsigned long nr_free, nr_total, hint, low_hint, max_pfn;
static DEFINE_SPINLOCK(frame_lock);

static bool frame_is_free(unsigned long pfn)
{
	return frame_free_map[pfn / BITS_PER_LONG] & (1UL << (pfn % BITS_PER_LONG));
}

static void frame_set(unsigned long pfn, bool free)
{
	unsigned long bit = 1UL << (pfn % BITS_PER_LONG);

	if (free)
		frame_free_map[pfn / BITS_PER_LONG] |= bit;
	else
		frame_free_map[pfn / BITS_PER_LONG] &= ~bit;
}

/* Returns the bytes of the range at or above the limit, which are ignored. */
phys_addr_t __init frame_add_ram(phys_addr_t base, phys_addr_t size)
{
	unsigned long pfn = ALIGN(base, PAGE_SIZE) >> PAGE_SHIFT;
	unsigned long end = ALIGN_DOWN(base + size, PAGE_SIZE) >> PAGE_SHIFT;
	unsigned long flags, ignored = 0;

	spin_lock_irqsave(&frame_lock, flags);
	if (end > MAX_FRAMES) {
		ignored = end - max(pfn, MAX_FRAMES);
		end = MAX_FRAMES;
	}
	for (; pfn < end; pfn++) {
		if (frame_is_free(pfn))
			continue;
		frame_set(pfn, true);
		nr_free++;
		nr_total++;
		low_hint = min(low_hint, pfn);
	}
	max_pfn = max(max_pfn, end);
	spin_unlock_irqrestore(&frame_lock, flags);
	return (phys_addr_t)ignored << PAGE_SHIFT;
}

void __init frame_reserve(phys_addr_t base, phys_addr_t size)
{
	unsigned long pfn = ALIGN_DOWN(base, PAGE_SIZE) >> PAGE_SHIFT;
	unsigned long end = ALIGN(base + size, PAGE_SIZE) >> PAGE_SHIFT;
	unsigned long flags;

	spin_lock_irqsave(&frame_lock, flags);
	for (; pfn < min(end, MAX_FRAMES); pfn++) {
		if (!frame_is_free(pfn))
			continue;
		frame_set(pfn, false);
		nr_free--;
		nr_total--;
	}
	spin_unlock_irqrestore(&frame_lock, flags);
}

/*
 * How many of the frames holding a byte of [base, base + size) are free:
 * all of them for RAM nobody took, none for a reserved range.
 */
unsigned long frames_free_in(phys_addr_t base, phys_addr_t size)
{
	unsigned long pfn = ALIGN_DOWN(base, PAGE_SIZE) >> PAGE_SHIFT;
	unsigned long end = ALIGN(base + size, PAGE_SIZE) >> PAGE_SHIFT;
	unsigned long flags, n = 0;

	spin_lock_irqsave(&frame_lock, flags);
	for (; pfn < min(end, max_pfn); pfn++)
		n += frame_is_free(pfn);
	spin_unlock_irqrestore(&frame_lock, flags);
	return n;
}

/* The first run of n free frames at or after start, or 0 if none. */
static unsigned long find_free_run(unsigned long start, unsigned long n)
{
	unsigned long pfn = start, run = 0;

	for (; pfn < max_pfn; pfn++) {
		if (!(pfn % BITS_PER_LONG) && !frame_free_map[pfn / BITS_PER_LONG] &&
		    pfn + BITS_PER_LONG <= max_pfn) {
			run = 0;
			pfn += BITS_PER_LONG - 1; /* a fully used word */
			continue;
		}
		run = frame_is_free(pfn) ? run + 1 : 0;
		if (run == n)
			return pfn - n + 1;
	}
	return 0;
}

phys_addr_t alloc_frames(unsigned long n)
{
	unsigned long pfn = 0, i, flags;

	spin_lock_irqsave(&frame_lock, flags);
	if (n == 1 && nr_free) {
		pfn = find_free_run(low_hint, 1);
		low_hint = pfn + 1;
	} else if (n && n <= nr_free) {
		pfn = find_free_run(hint, n);
		if (!pfn)
			pfn = find_free_run(0, n);
		if (pfn)
			hint = pfn + n;
	}
	if (pfn) {
		for (i = 0; i < n; i++)
			frame_set(pfn + i, false);
		nr_free -= n;
	}
	spin_unlock_irqrestore(&frame_lock, flags);
	return (phys_addr_t)pfn << PAGE_SHIFT;
}

void free_frames(phys_addr_t pa, unsigned long n)
{
	unsigned long pfn = pa >> PAGE_SHIFT, i, flags;

	spin_lock_irqsave(&frame_lock, flags);
	if (WARN(!IS_ALIGNED(pa, PAGE_SIZE) || !pfn || pfn + n > max_pfn,
		 "free_frames: bad range %#llx + %lu frames\n", pa, n))
		goto out;
	for (i = 0; i < n; i++) {
		if (WARN(frame_is_free(pfn + i), "free_frames: %#llx already free\n",
			 (phys_addr_t)(pfn + i) << PAGE_SHIFT))
			continue;
		frame_set(pfn + i, true);
		nr_free++;
	}
	low_hint = min(low_hint, pfn);
out:
	spin_unlock_irqrestore(&frame_lock, flags);
}

/* Frames handed back by free_initmem() join the managed total. */
void frame_grow(unsigned long n)
{
	unsigned long flags;

	spin_lock_irqsave(&frame_lock, flags);
	nr_total += n;
	spin_unlock_irqrestore(&frame_lock, flags);
}

phys_addr_t alloc_zeroed_frame(void)
{
	phys_addr_t pa = alloc_frame();

	if (pa)
		memset(__va(pa), 0, PAGE_SIZE);
	return pa;
}

unsigned long nr_free_frames(void)
{
	return READ_ONCE(nr_free);
}
EXPORT_SYMBOL_GPL(nr_free_frames);

unsigned long nr_total_frames(void)
{
	return READ_ONCE(nr_total);
}

phys_addr_t max_phys_addr(void)
{
	return (phys_addr_t)READ_ONCE(max_pfn) << PAGE_SHIFT;
}
