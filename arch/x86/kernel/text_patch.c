// SPDX-License-Identifier: GPL-2.0
/*
 * Writing kernel text. Text is mapped read-only and has no writable alias
 * (the direct map's copy of it is read-only too), so a write goes through a
 * fixmap slot mapped just for it: the physical page of the site is mapped
 * writable at FIX_TEXT_POKE0 (and the next page at FIX_TEXT_POKE1 when the
 * bytes straddle a page boundary), written, and unmapped again.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <asm/fixmap.h>
#include <asm/pgtable.h>
#include <asm/processor.h>
#include <asm/text-patching.h>

struct text_poke_stats text_poke_stats;

struct text_poke_loc {
	void *addr;
	u8 len;
	u8 opcode[POKE_MAX_OPCODE_SIZE];
};

static struct text_poke_loc *tp_vec;
static unsigned int tp_nr, tp_cap;

static phys_addr_t text_virt_to_phys(unsigned long va)
{
	bool large;
	pteval_t *pte = lookup_pte(va, &large);
	unsigned long mask = large ? PMD_SIZE - 1 : PAGE_SIZE - 1;

	if (!pte)
		panic("text_poke: %pS (%#lx) is not mapped", (void *)va, va);
	return (*pte & PTE_PFN_MASK & ~(u64)mask) | (va & mask);
}

static void text_poke_write(unsigned long va, const u8 *src, size_t len)
{
	size_t first = min_t(size_t, len, PAGE_SIZE - (va & ~PAGE_MASK));
	u8 *alias = set_fixmap(FIX_TEXT_POKE0, text_virt_to_phys(va));

	memcpy(alias, src, first);
	if (first < len) {
		u8 *next = set_fixmap(FIX_TEXT_POKE1,
				      text_virt_to_phys(va + first));

		memcpy(next, src + first, len - first);
		clear_fixmap(FIX_TEXT_POKE1);
	}
	clear_fixmap(FIX_TEXT_POKE0);
}

void text_poke(void *addr, const void *opcode, size_t len)
{
	unsigned long flags = native_save_fl();

	BUG_ON(len > PAGE_SIZE);
	local_irq_disable();
	text_poke_write((unsigned long)addr, opcode, len);
	sync_core();
	if (memcmp(addr, opcode, len))
		panic("text_poke: %pS reads %*ph after writing %*ph", addr,
		      (int)len, addr, (int)len, opcode);
	text_poke_stats.pokes++;
	if (flags & (1UL << 9))
		local_irq_enable();
}

/* Makes room for one more change; false if memory ran out. */
static bool text_poke_grow(void)
{
	unsigned int cap = tp_cap ? 2 * tp_cap : 64;
	struct text_poke_loc *v;

	if (tp_nr < tp_cap)
		return true;
	v = kmalloc(cap * sizeof(*v), GFP_KERNEL);
	if (!v)
		return false;
	if (tp_vec)
		memcpy(v, tp_vec, tp_nr * sizeof(*v));
	kfree(tp_vec);
	tp_vec = v;
	tp_cap = cap;
	return true;
}

void text_poke_queue(void *addr, const void *opcode, size_t len)
{
	struct text_poke_loc *tp;

	BUG_ON(len > POKE_MAX_OPCODE_SIZE);
	/* Out of memory: write what is queued, then queue into the room. */
	if (!text_poke_grow()) {
		text_poke_finish();
		if (!tp_cap) { /* not even a first queue: write it now */
			text_poke(addr, opcode, len);
			text_poke_stats.sites++;
			text_poke_stats.batches++;
			return;
		}
	}
	tp = &tp_vec[tp_nr++];
	tp->addr = addr;
	tp->len = len;
	memcpy(tp->opcode, opcode, len);
}

void text_poke_finish(void)
{
	unsigned int i;

	if (!tp_nr)
		return;
	for (i = 0; i < tp_nr; i++)
		text_poke(tp_vec[i].addr, tp_vec[i].opcode, tp_vec[i].len);
	text_poke_stats.sites += tp_nr;
	text_poke_stats.batches++;
	tp_nr = 0;
}
