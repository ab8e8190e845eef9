// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the frame allocator and kmalloc.
 */
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/slab.h>
#include <kunit/test.h>

/*
 * The cases count free frames: stacks of tasks that died earlier are
 * freed first, not by an idle task in the middle of a count.
 */
static int mm_test_init(struct kunit *test)
{
	task_reap_dead();
	return 0;
}

static void frame_test_alloc_free_reuse(struct kunit *test)
{
	unsigned long before = nr_free_frames();
	phys_addr_t a = alloc_frame();

	KUNIT_ASSERT_NE(test, a, 0);
	KUNIT_EXPECT_TRUE(test, IS_ALIGNED(a, PAGE_SIZE));
	KUNIT_EXPECT_EQ(test, nr_free_frames(), before - 1);
	/* The frame is usable through the direct map. */
	memset(__va(a), 0x5a, PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, ((u8 *)__va(a))[PAGE_SIZE - 1], 0x5a);
	free_frame(a);
	KUNIT_EXPECT_EQ(test, nr_free_frames(), before);
}

static void frame_test_contiguous(struct kunit *test)
{
	phys_addr_t a = alloc_frames(16);
	unsigned long before;

	KUNIT_ASSERT_NE(test, a, 0);
	before = nr_free_frames();
	free_frames(a, 16);
	KUNIT_EXPECT_EQ(test, nr_free_frames(), before + 16);
	KUNIT_EXPECT_EQ(test, alloc_frames(0), 0);
}

/* Takes every free frame, chained through their first word, then frees. */
static void frame_test_exhaustion(struct kunit *test)
{
	unsigned long before = nr_free_frames(), n = 0;
	phys_addr_t head = 0, pa;

	while ((pa = alloc_frame())) {
		*(phys_addr_t *)__va(pa) = head;
		head = pa;
		n++;
	}
	KUNIT_EXPECT_EQ(test, n, before);
	KUNIT_EXPECT_EQ(test, nr_free_frames(), 0);
	KUNIT_EXPECT_EQ(test, alloc_frame(), 0);
	KUNIT_EXPECT_EQ(test, alloc_frames(2), 0);
	while (head) {
		pa = head;
		head = *(phys_addr_t *)__va(pa);
		free_frame(pa);
	}
	KUNIT_EXPECT_EQ(test, nr_free_frames(), before);
}

static void frame_test_double_free_warns(struct kunit *test)
{
	phys_addr_t a = alloc_frame();
	unsigned long warns, before;

	KUNIT_ASSERT_NE(test, a, 0);
	free_frame(a);
	before = nr_free_frames();
	warns = nr_warnings;
	free_frame(a);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	KUNIT_EXPECT_EQ(test, nr_free_frames(), before);
}

static struct kunit_case frame_test_cases[] = {
	KUNIT_CASE(frame_test_alloc_free_reuse),
	KUNIT_CASE(frame_test_contiguous),
	KUNIT_CASE(frame_test_exhaustion),
	KUNIT_CASE(frame_test_double_free_warns),
	{}
};

static struct kunit_suite frame_test_suite = {
	.name = "frame_alloc",
	.init = mm_test_init,
	.test_cases = frame_test_cases,
};

static void kmalloc_test_sizes(struct kunit *test)
{
	static const size_t sizes[] = { 1, 15, 16, 17, 100, 2032, 2033, 4096,
					10000, 1 << 20 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		u8 *p = kmalloc(sizes[i], GFP_KERNEL);

		KUNIT_ASSERT_NOT_NULL(test, p);
		KUNIT_EXPECT_TRUE(test, IS_ALIGNED((unsigned long)p, 16));
		KUNIT_EXPECT_GE(test, ksize(p), sizes[i]);
		memset(p, 0xa5, sizes[i]);
		KUNIT_EXPECT_EQ(test, p[sizes[i] - 1], 0xa5);
		kfree(p);
	}
	KUNIT_EXPECT_NULL(test, kmalloc(0, GFP_KERNEL));
}

static void kmalloc_test_reuse(struct kunit *test)
{
	void *a = kmalloc(64, GFP_KERNEL), *b;

	KUNIT_ASSERT_NOT_NULL(test, a);
	kfree(a);
	b = kmalloc(60, GFP_KERNEL);
	KUNIT_EXPECT_PTR_EQ(test, a, b); /* same class, last freed first */
	kfree(b);
}

static void kmalloc_test_zeroed(struct kunit *test)
{
	u8 *p = kmalloc(256, GFP_KERNEL), *z;
	unsigned int i, nonzero = 0;

	KUNIT_ASSERT_NOT_NULL(test, p);
	memset(p, 0xff, 256);
	kfree(p);
	z = kzalloc(256, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, z);
	for (i = 0; i < 256; i++)
		nonzero += z[i] != 0;
	KUNIT_EXPECT_EQ(test, nonzero, 0);
	kfree(z);
	KUNIT_EXPECT_NULL(test, kcalloc(SIZE_MAX / 2, 4, GFP_KERNEL));
}

/* Large blocks until memory runs out: NULL, then everything comes back. */
static void kmalloc_test_exhaustion(struct kunit *test)
{
	unsigned long before = nr_free_frames(), n = 0;
	void **head = NULL, **p;

	KUNIT_EXPECT_NULL(test, kmalloc(max_phys_addr() + PAGE_SIZE, GFP_KERNEL));
	while ((p = kmalloc(1 << 20, GFP_KERNEL))) {
		*p = head;
		head = p;
		n++;
	}
	KUNIT_EXPECT_GT(test, n, 0);
	KUNIT_EXPECT_LT(test, nr_free_frames(), before / 16);
	while (head) {
		p = *head;
		kfree(head);
		head = p;
	}
	KUNIT_EXPECT_EQ(test, nr_free_frames(), before);
}

static void kmalloc_test_bad_free_warns(struct kunit *test)
{
	u8 *p = kmalloc(32, GFP_KERNEL);
	unsigned long warns;
	static u8 not_heap[64] __aligned(16);

	KUNIT_ASSERT_NOT_NULL(test, p);
	kfree(p);
	warns = nr_warnings;
	kfree(p); /* double free */
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	kfree(not_heap + 16); /* never allocated */
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 2);
	kfree(NULL);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 2);
}

static struct kunit_case kmalloc_test_cases[] = {
	KUNIT_CASE(kmalloc_test_sizes),
	KUNIT_CASE(kmalloc_test_reuse),
	KUNIT_CASE(kmalloc_test_zeroed),
	KUNIT_CASE(kmalloc_test_exhaustion),
	KUNIT_CASE(kmalloc_test_bad_free_warns),
	{}
};

static struct kunit_suite kmalloc_test_suite = {
	.name = "kmalloc",
	.init = mm_test_init,
	.test_cases = kmalloc_test_cases,
};

kunit_test_suites(&frame_test_suite, &kmalloc_test_suite);
