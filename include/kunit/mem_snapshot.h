/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KUNIT_MEM_SNAPSHOT_H
#define _KUNIT_MEM_SNAPSHOT_H

/*
 * What a leak test compares before and after: frames, counted so that
 * memory that moved between uses still adds up (a free frame that became a
 * page table, say, when a 2 MiB page of the direct map was split, or a
 * frame kmalloc split into objects and keeps), and kmalloc's blocks and
 * bytes in use, which must come back exactly.
 */
#include <linux/mm.h>
#include <linux/slab.h>
#include <asm/pgtable.h>

struct kunit_mem {
	unsigned long frames; /* free + page tables + kmalloc's */
	unsigned long objects;
	unsigned long bytes;
};

static inline void kunit_mem_snapshot(struct kunit_mem *m)
{
	m->frames = nr_free_frames() + nr_page_table_frames() +
		    kmalloc_cache_frames();
	kmalloc_usage(&m->objects, &m->bytes);
}

static inline bool kunit_mem_equal(const struct kunit_mem *a,
				   const struct kunit_mem *b)
{
	return a->frames == b->frames && a->objects == b->objects &&
	       a->bytes == b->bytes;
}

#endif /* _KUNIT_MEM_SNAPSHOT_H */
