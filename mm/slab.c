// SPDX-License-Identifier: GPL-2.0
/*
 * kmalloc: power-of-two classes of 32..2048 bytes (16 of them a header)
 * carved from single frames, and whole contiguous frames above that. The
 * header records the class, or the frame count of a large block, and a
 * magic that kfree() checks: a pointer kmalloc did not return, or one freed
 * twice, WARNs and is ignored. kmalloc_lock (interrupts disabled: funcs
 * run by IPIs may allocate) covers the free lists and the headers of
 * free objects; it is taken before the frame allocator's lock.
 */
#include <linux/atomic.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#define KMALLOC_MIN_SHIFT 5
#define KMALLOC_MAX_SHIFT 11
#define NR_CLASSES (KMALLOC_MAX_SHIFT - KMALLOC_MIN_SHIFT + 1)
#define LARGE_CLASS 0xff

#define KMALLOC_MAGIC 0x6b6d616c /* "kmal" */
#define KFREE_MAGIC 0x6b667265	 /* "kfre" */

struct kmalloc_header {
	u32 magic;
	u32 class;	/* size class index, or LARGE_CLASS */
	u64 nframes;	/* large blocks only */
};

struct free_object {
	struct kmalloc_header hdr;
	struct free_object *next;
};

static struct free_object *free_lists[NR_CLASSES];
static atomic_t kmalloc_fail_pending;
static atomic_t kmalloc_fail_skip;	/* successes before those failures */
/* Blocks handed out and not freed, and their bytes (class or frames). */
static unsigned long kmalloc_objects, kmalloc_bytes;
/* Frames split into small objects: they stay with kmalloc for good. */
static unsigned long kmalloc_class_frames;
static DEFINE_SPINLOCK(kmalloc_lock);

static size_t class_size(unsigned int class)
{
	return 1UL << (class + KMALLOC_MIN_SHIFT);
}

/* What block h takes from memory, header included. */
static size_t block_bytes(const struct kmalloc_header *h)
{
	if (h->class == LARGE_CLASS)
		return h->nframes * PAGE_SIZE;
	return class_size(h->class);
}

static void kmalloc_account(const struct kmalloc_header *h, long sign)
{
	__atomic_fetch_add(&kmalloc_objects, sign, __ATOMIC_RELAXED);
	__atomic_fetch_add(&kmalloc_bytes, sign * (long)block_bytes(h),
			   __ATOMIC_RELAXED);
}

void kmalloc_usage(unsigned long *objects, unsigned long *bytes)
{
	*objects = __atomic_load_n(&kmalloc_objects, __ATOMIC_RELAXED);
	*bytes = __atomic_load_n(&kmalloc_bytes, __ATOMIC_RELAXED);
}

unsigned long kmalloc_cache_frames(void)
{
	return __atomic_load_n(&kmalloc_class_frames, __ATOMIC_RELAXED);
}

/* Splits a fresh frame into objects of one class. */
static bool refill_class(unsigned int class)
{
	phys_addr_t pa = alloc_frame();
	size_t sz = class_size(class), off;
	char *page;

	if (!pa)
		return false;
	__atomic_fetch_add(&kmalloc_class_frames, 1, __ATOMIC_RELAXED);
	page = __va(pa);
	for (off = 0; off + sz <= PAGE_SIZE; off += sz) {
		struct free_object *o = (void *)(page + off);

		o->hdr.magic = KFREE_MAGIC;
		o->hdr.class = class;
		o->next = free_lists[class];
		free_lists[class] = o;
	}
	return true;
}

static void *kmalloc_large(size_t size)
{
	unsigned long n = DIV_ROUND_UP(size + sizeof(struct kmalloc_header),
				       PAGE_SIZE);
	phys_addr_t pa = alloc_frames(n);
	struct kmalloc_header *h;

	if (!pa)
		return NULL;
	h = __va(pa);
	h->magic = KMALLOC_MAGIC;
	h->class = LARGE_CLASS;
	h->nframes = n;
	kmalloc_account(h, 1);
	return h + 1;
}

static void *kmalloc_small(unsigned int class)
{
	struct free_object *o = NULL;
	unsigned long flags;

	spin_lock_irqsave(&kmalloc_lock, flags);
	if (free_lists[class] || refill_class(class)) {
		o = free_lists[class];
		free_lists[class] = o->next;
		o->hdr.magic = KMALLOC_MAGIC;
		kmalloc_account(&o->hdr, 1);
	}
	spin_unlock_irqrestore(&kmalloc_lock, flags);
	return o ? &o->hdr + 1 : NULL;
}

unsigned int kmalloc_fail_next(unsigned int n)
{
	atomic_set(&kmalloc_fail_skip, 0);
	return atomic_xchg(&kmalloc_fail_pending, n);
}

void kmalloc_fail_after(unsigned int skip, unsigned int n)
{
	atomic_set(&kmalloc_fail_pending, 0);
	atomic_set(&kmalloc_fail_skip, skip);
	atomic_set(&kmalloc_fail_pending, n);
}

/* Consumes one injected failure, if any is pending and none is skipped. */
static bool kmalloc_inject_failure(void)
{
	int v = atomic_read(&kmalloc_fail_pending);

	if (v <= 0)
		return false;
	v = atomic_read(&kmalloc_fail_skip);
	while (v > 0)
		if (atomic_try_cmpxchg(&kmalloc_fail_skip, &v, v - 1))
			return false;
	v = atomic_read(&kmalloc_fail_pending);
	do {
		if (v <= 0)
			return false;
	} while (!atomic_try_cmpxchg(&kmalloc_fail_pending, &v, v - 1));
	return true;
}

void *kmalloc(size_t size, gfp_t flags)
{
	unsigned int class = 0;
	void *p;

	if (!size || size > (1UL << 40) || kmalloc_inject_failure())
		return NULL;
	while (class < NR_CLASSES &&
	       class_size(class) < size + sizeof(struct kmalloc_header))
		class++;
	if (class == NR_CLASSES)
		p = kmalloc_large(size);
	else
		p = kmalloc_small(class);
	if (p && (flags & __GFP_ZERO))
		memset(p, 0, size);
	return p;
}
EXPORT_SYMBOL(kmalloc);

void *kzalloc(size_t size, gfp_t flags)
{
	return kmalloc(size, flags | __GFP_ZERO);
}
EXPORT_SYMBOL(kzalloc);

void *kcalloc(size_t n, size_t size, gfp_t flags)
{
	if (size && n > SIZE_MAX / size)
		return NULL;
	return kzalloc(n * size, flags);
}
EXPORT_SYMBOL(kcalloc);

static struct kmalloc_header *kmalloc_hdr(const void *p)
{
	struct kmalloc_header *h = (struct kmalloc_header *)p - 1;

	if (WARN(!IS_ALIGNED((unsigned long)p, 16) || h->magic != KMALLOC_MAGIC,
		 "kfree: %p is not an allocated block (magic %#x)\n", p,
		 IS_ALIGNED((unsigned long)p, 16) ? h->magic : 0))
		return NULL;
	return h;
}

size_t ksize(const void *p)
{
	struct kmalloc_header *h = p ? kmalloc_hdr(p) : NULL;

	if (!h)
		return 0;
	if (h->class == LARGE_CLASS)
		return h->nframes * PAGE_SIZE - sizeof(*h);
	return class_size(h->class) - sizeof(*h);
}
EXPORT_SYMBOL(ksize);

void kfree(const void *p)
{
	struct kmalloc_header *h;
	struct free_object *o;
	unsigned long flags;

	if (!p)
		return;
	/* Under the lock: of two CPUs freeing p at once, one sees it freed. */
	spin_lock_irqsave(&kmalloc_lock, flags);
	h = kmalloc_hdr(p);
	if (h)
		kmalloc_account(h, -1);
	if (h && h->class == LARGE_CLASS) {
		h->magic = KFREE_MAGIC;
		free_frames(__pa(h), h->nframes);
	} else if (h) {
		o = (struct free_object *)h;
		o->hdr.magic = KFREE_MAGIC;
		o->next = free_lists[h->class];
		free_lists[h->class] = o;
	}
	spin_unlock_irqrestore(&kmalloc_lock, flags);
}
EXPORT_SYMBOL(kfree);
