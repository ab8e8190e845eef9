// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for sort() and is_sorted() (lib/sort.c): every order of
 * input comes out sorted and a permutation of itself, with the default
 * swap at each element width it picks (8-byte words, 4-byte words, bytes)
 * and with a caller's swap; is_sorted() takes num - 1 compares on input
 * in order and stops at the first pair out of order.
 */

#include <kunit/test.h>
#include <linux/sort.h>
#include <linux/string.h>

#define SORT_TEST_MAX 67

static unsigned int sort_test_cmps, sort_test_swaps, sort_test_bad_size;

static int sort_test_cmp(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	sort_test_cmps++;
	return x < y ? -1 : x > y;
}

static void sort_test_swap(void *a, void *b, int size)
{
	u32 t = *(u32 *)a;

	if (size != sizeof(u32))
		sort_test_bad_size++;
	sort_test_swaps++;
	*(u32 *)a = *(u32 *)b;
	*(u32 *)b = t;
}

/* xorshift32: the same inputs every boot. */
static u32 sort_test_next(u32 *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 17;
	*state ^= *state << 5;
	return *state;
}

/*
 * Elements of @size bytes whose first four hold the key; the rest are a
 * checksum of the key, so a swap that moved part of an element shows.
 */
static void sort_test_fill(u8 *buf, size_t n, size_t size, const u32 *keys)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		memcpy(buf + i * size, &keys[i], sizeof(u32));
		for (j = sizeof(u32); j < size; j++)
			buf[i * size + j] = (u8)(keys[i] * 31 + j);
	}
}

static void sort_test_check(struct kunit *test, const u8 *buf, size_t n,
			    size_t size, const u32 *keys)
{
	u32 sum_in = 0, sum_out = 0, xor_in = 0, xor_out = 0, key, prev = 0;
	size_t i, j;

	for (i = 0; i < n; i++) {
		memcpy(&key, buf + i * size, sizeof(u32));
		KUNIT_EXPECT_GE_MSG(test, key, prev, "n %zu size %zu at %zu", n,
				    size, i);
		for (j = sizeof(u32); j < size; j++)
			KUNIT_EXPECT_EQ_MSG(test, buf[i * size + j],
					    (u8)(key * 31 + j),
					    "n %zu size %zu: element %zu torn",
					    n, size, i);
		prev = key;
		sum_out += key;
		xor_out ^= key * 2654435761u;
		sum_in += keys[i];
		xor_in ^= keys[i] * 2654435761u;
	}
	KUNIT_EXPECT_EQ_MSG(test, sum_out, sum_in, "n %zu size %zu", n, size);
	KUNIT_EXPECT_EQ_MSG(test, xor_out, xor_in, "n %zu size %zu", n, size);
}

enum sort_test_order { ASCENDING, DESCENDING, LAST_PAIR, RANDOM, FEW };

static void sort_test_keys(u32 *keys, size_t n, enum sort_test_order order,
			   u32 *state)
{
	size_t i;

	for (i = 0; i < n; i++) {
		switch (order) {
		case ASCENDING:
		case LAST_PAIR:
			keys[i] = 10 * i;
			break;
		case DESCENDING:
			keys[i] = 10 * (n - i);
			break;
		case RANDOM:
			keys[i] = sort_test_next(state);
			break;
		case FEW:
			keys[i] = sort_test_next(state) % 3;
			break;
		}
	}
	if (order == LAST_PAIR && n >= 2) {
		keys[n - 2] = 10 * n;
		keys[n - 1] = 10 * (n - 2);
	}
}

/* Each order, each length to SORT_TEST_MAX, each width sort() swaps at. */
static void sort_test_orders(struct kunit *test)
{
	static const size_t sizes[] = { 4, 8, 12, 16, 24, 5, 7 };
	u8 *buf = kunit_kmalloc(test, SORT_TEST_MAX * 24, GFP_KERNEL);
	u32 *keys =
		kunit_kmalloc(test, SORT_TEST_MAX * sizeof(u32), GFP_KERNEL);
	u32 state = 0x2545f491;
	size_t n, s;
	int order;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, keys);
	for (order = ASCENDING; order <= FEW; order++) {
		for (n = 0; n <= SORT_TEST_MAX; n++) {
			sort_test_keys(keys, n, order, &state);
			for (s = 0; s < ARRAY_SIZE(sizes); s++) {
				sort_test_fill(buf, n, sizes[s], keys);
				sort(buf, n, sizes[s], sort_test_cmp, NULL);
				sort_test_check(test, buf, n, sizes[s], keys);
			}
		}
	}
}

/*
 * is_sorted(): true on input in order after num - 1 compares, false on one
 * pair out of order, stopping there; and a caller's swap sorts that input
 * and is handed the element size.
 */
static void sort_test_is_sorted(struct kunit *test)
{
	u32 keys[SORT_TEST_MAX], state = 1;
	size_t n;

	sort_test_bad_size = 0;
	for (n = 0; n <= SORT_TEST_MAX; n++) {
		sort_test_keys(keys, n, ASCENDING, &state);
		sort_test_cmps = 0;
		KUNIT_EXPECT_TRUE_MSG(
			test, is_sorted(keys, n, sizeof(u32), sort_test_cmp),
			"n %zu", n);
		KUNIT_EXPECT_EQ_MSG(test, sort_test_cmps, n ? n - 1 : 0,
				    "n %zu", n);
		if (n < 2)
			continue;
		sort_test_keys(keys, n, LAST_PAIR, &state);
		sort_test_cmps = 0;
		KUNIT_EXPECT_FALSE_MSG(
			test, is_sorted(keys, n, sizeof(u32), sort_test_cmp),
			"n %zu", n);
		KUNIT_EXPECT_EQ_MSG(test, sort_test_cmps, n - 1, "n %zu", n);
		sort_test_swaps = 0;
		sort(keys, n, sizeof(u32), sort_test_cmp, sort_test_swap);
		KUNIT_EXPECT_GT_MSG(test, sort_test_swaps, 0, "n %zu", n);
		KUNIT_EXPECT_TRUE_MSG(
			test, is_sorted(keys, n, sizeof(u32), sort_test_cmp),
			"n %zu", n);
		/* The first pair out: the scan stops after one compare. */
		keys[0] = keys[1];
		keys[1] = 0;
		sort_test_cmps = 0;
		KUNIT_EXPECT_FALSE(test, is_sorted(keys, n, sizeof(u32),
						   sort_test_cmp));
		KUNIT_EXPECT_EQ_MSG(test, sort_test_cmps, 1, "n %zu", n);
	}
	KUNIT_EXPECT_EQ(test, sort_test_bad_size, 0);
}

static struct kunit_case sort_test_cases[] = { KUNIT_CASE(sort_test_orders),
					       KUNIT_CASE(sort_test_is_sorted),
					       {} };

static struct kunit_suite sort_test_suite = {
	.name = "sort",
	.test_cases = sort_test_cases,
};

kunit_test_suite(sort_test_suite);
