// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the module blobs: the boot archive GRUB handed over must hold
 * exactly what the build put there ($(O)/iso-modules, listed with each
 * file's size and CRC32 in the generated header), byte for byte, each
 * 8-byte aligned, and the frames under them must be the allocator's no
 * more.
 */
#include <linux/kernel.h>
#include <linux/init.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/module_blob.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <asm/page.h>
#include <asm/pgtable.h>
#include <kunit/test.h>

struct blob_expect {
	const char *name;
	size_t size;
	u32 crc32;
};

static const struct blob_expect expected[] = {
#define MODULE_BLOB(n, s, c) { .name = n, .size = s, .crc32 = c },
#include <generated/module_blobs.h>
#undef MODULE_BLOB
};

/* zlib's CRC-32 (reflected, polynomial 0xedb88320), which the build used. */
static u32 crc32(const void *data, size_t len)
{
	const u8 *p = data;
	u32 crc = ~0U;
	int bit;

	while (len--) {
		crc ^= *p++;
		for (bit = 0; bit < 8; bit++)
			crc = (crc >> 1) ^ (0xedb88320 & -(crc & 1));
	}
	return ~crc;
}

/* Every blob of the ISO arrived whole, and nothing else did. */
static void module_blob_test_as_built(struct kunit *test)
{
	const struct blob_expect *e;
	const struct module_blob *b;

	KUNIT_ASSERT_EQ(test, crc32("123456789", 9), 0xcbf43926);
	KUNIT_EXPECT_EQ(test, module_blob_count(), ARRAY_SIZE(expected));
	for (e = expected; e < expected + ARRAY_SIZE(expected); e++) {
		b = module_blob_find(e->name);
		KUNIT_EXPECT_NOT_NULL_MSG(test, b, "no blob %s", e->name);
		if (!b)
			continue;
		KUNIT_EXPECT_EQ_MSG(test, b->size, e->size, "%s", e->name);
		if (b->size == e->size)
			KUNIT_EXPECT_EQ_MSG(test, crc32(b->data, b->size),
					    e->crc32, "%s", e->name);
	}
}

/*
 * The sample module is an x86-64 relocatable ELF64 object: e_ident (magic,
 * EI_CLASS 2 = 64-bit, EI_DATA 1 = little-endian), then e_type at offset
 * 16 (ET_REL, 1) and e_machine at 18 (EM_X86_64, 62).
 */
static void module_blob_test_sample_hello(struct kunit *test)
{
	const struct module_blob *b = module_blob_find("sample_hello");
	const u8 *p;

	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_ASSERT_GE(test, b->size, 64);
	p = b->data;
	KUNIT_EXPECT_MEMEQ(test, p,
			   "\x7f"
			   "ELF",
			   4);
	KUNIT_EXPECT_EQ(test, p[4], 2);
	KUNIT_EXPECT_EQ(test, p[5], 1);
	KUNIT_EXPECT_EQ(test, p[16] | p[17] << 8, 1);
	KUNIT_EXPECT_EQ(test, p[18] | p[19] << 8, 62);
}

/* Names are unique, and find() and get() agree. */
static void module_blob_test_lookup(struct kunit *test)
{
	unsigned int n = module_blob_count(), i, j;

	for (i = 0; i < n; i++) {
		const struct module_blob *b = module_blob_get(i);

		KUNIT_ASSERT_NOT_NULL(test, b);
		KUNIT_EXPECT_PTR_EQ(test, module_blob_find(b->name), b);
		KUNIT_EXPECT_LT(test, strlen(b->name), MODULE_NAME_LEN);
		for (j = i + 1; j < n; j++)
			KUNIT_EXPECT_STRNEQ(test, b->name,
					    module_blob_get(j)->name);
	}
	KUNIT_EXPECT_NULL(test, module_blob_get(n));
	KUNIT_EXPECT_NULL(test, module_blob_find("no_such_blob"));
	KUNIT_EXPECT_NULL(test, module_blob_find("sample_hell"));
	KUNIT_EXPECT_NULL(test, module_blob_find(""));
}

/* Each blob is in the direct map, its frames all reserved. */
static void module_blob_test_frames_reserved(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < module_blob_count(); i++) {
		const struct module_blob *b = module_blob_get(i);
		phys_addr_t pa = __pa(b->data);

		KUNIT_EXPECT_EQ(test, (unsigned long)b->data,
				(unsigned long)__va(pa));
		KUNIT_EXPECT_TRUE(test, direct_mapped(pa, b->size));
		KUNIT_EXPECT_EQ_MSG(test, frames_free_in(pa, b->size), 0,
				    "%s: free frames under it", b->name);
		/* The boot archive puts each module 8-byte aligned. */
		KUNIT_EXPECT_TRUE_MSG(test, IS_ALIGNED(pa, 8), "%s at %#llx",
				      b->name, (unsigned long long)pa);
	}
}

static bool in_a_blob(phys_addr_t frame)
{
	unsigned int i;

	for (i = 0; i < module_blob_count(); i++) {
		const struct module_blob *b = module_blob_get(i);
		phys_addr_t start = ALIGN_DOWN(__pa(b->data), PAGE_SIZE);

		if (frame >= start && frame < __pa(b->data) + b->size)
			return true;
	}
	return false;
}

/* Taking every free frame never yields one under a blob. */
static void module_blob_test_never_allocated(struct kunit *test)
{
	phys_addr_t head = 0, pa;
	unsigned long hits = 0;

	task_reap_dead();
	while ((pa = alloc_frame())) {
		hits += in_a_blob(pa);
		*(phys_addr_t *)__va(pa) = head;
		head = pa;
	}
	while (head) {
		pa = head;
		head = *(phys_addr_t *)__va(pa);
		free_frame(pa);
	}
	KUNIT_EXPECT_EQ(test, hits, 0);
}

/* What makes the boot ignore a module: the checks of each reason. */
static void module_blob_test_bad_ranges(struct kunit *test)
{
	phys_addr_t end = max_phys_addr();
	phys_addr_t image = __pa_symbol(_text);
	unsigned int tries;
	bool ok = false;

	KUNIT_EXPECT_STREQ(test, module_blob_check_range(0x200000, 0x1ff000),
			   "its end is before its start");
	/* Past the RAM the kernel manages, or straddling its end. */
	KUNIT_EXPECT_NOT_NULL(test, module_blob_check_range(end, end + 4096));
	KUNIT_EXPECT_NOT_NULL(test,
			      module_blob_check_range(end - 4096, end + 4096));
	/* The first MiB, the kernel image, a blob already there. */
	KUNIT_EXPECT_NOT_NULL(test, module_blob_check_range(0x1000, 0x2000));
	KUNIT_EXPECT_NOT_NULL(test,
			      module_blob_check_range(image, image + 4096));
	/* A free frame can (freed a moment ago: retried if taken meanwhile). */
	for (tries = 0; tries < 3 && !ok; tries++) {
		phys_addr_t pa = alloc_frame();

		KUNIT_ASSERT_NE(test, pa, 0);
		free_frame(pa);
		ok = !module_blob_check_range(pa, pa + PAGE_SIZE);
	}
	KUNIT_EXPECT_TRUE(test, ok);
	if (module_blob_count()) {
		const struct module_blob *b = module_blob_get(0);

		KUNIT_EXPECT_NOT_NULL(
			test, module_blob_check_range(__pa(b->data),
						      __pa(b->data) + b->size));
	}
}

static struct kunit_case module_blob_test_cases[] = {
	KUNIT_CASE(module_blob_test_as_built),
	KUNIT_CASE(module_blob_test_sample_hello),
	KUNIT_CASE(module_blob_test_lookup),
	KUNIT_CASE(module_blob_test_frames_reserved),
	KUNIT_CASE(module_blob_test_never_allocated),
	KUNIT_CASE(module_blob_test_bad_ranges),
	{}
};

static struct kunit_suite module_blob_test_suite = {
	.name = "module_blob",
	.test_cases = module_blob_test_cases,
};
kunit_test_suite(module_blob_test_suite);
