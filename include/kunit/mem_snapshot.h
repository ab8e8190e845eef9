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
#include <kunit/test.h>

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

/*
 * Runs op until one run leaves the counts as it found them, three runs at
 * most (or until the case has failed): other CPUs allocate and free
 * meanwhile, while a leak shows on every run. settle, if set, runs before
 * each count (rcu_barrier(), say). The last run's counts must be equal.
 */
static inline void kunit_expect_no_leak(struct kunit *test,
					void (*op)(struct kunit *test,
						   void *arg),
					void *arg, void (*settle)(void))
{
	struct kunit_mem before, after;
	unsigned int tries = 0;

	do {
		if (settle)
			settle();
		kunit_mem_snapshot(&before);
		op(test, arg);
		if (settle)
			settle();
		kunit_mem_snapshot(&after);
	} while (!kunit_mem_equal(&before, &after) && ++tries < 3 &&
		 !test->status);
	KUNIT_EXPECT_EQ(test, after.frames, before.frames);
	KUNIT_EXPECT_EQ(test, after.objects, before.objects);
	KUNIT_EXPECT_EQ(test, after.bytes, before.bytes);
}

#endif /* _KUNIT_MEM_SNAPSHOT_H */
