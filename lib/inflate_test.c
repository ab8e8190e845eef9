// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of gunzip() (lib/inflate.c) on members zlib wrote, one for each
 * kind of deflate block, and on each way a member can be wrong.
 */
#include <kunit/test.h>
#include <linux/inflate.h>
#include "inflate_test_vectors.h"

static struct inflate_work work;

static void inflate_test_crc32(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, crc32_le(0, "123456789", 9), 0xcbf43926);
	KUNIT_EXPECT_EQ(test, crc32_le(crc32_le(0, "1234", 4), "56789", 5),
			0xcbf43926);
	KUNIT_EXPECT_EQ(test, crc32_le(0, "", 0), 0);
}

static void inflate_test_stored(struct kunit *test)
{
	char out[32] = {};

	KUNIT_EXPECT_TRUE(test, is_gzip(gz_stored, sizeof(gz_stored)));
	KUNIT_EXPECT_EQ(test, gzip_size(gz_stored, sizeof(gz_stored)), 19);
	KUNIT_EXPECT_EQ(test,
			gunzip(gz_stored, sizeof(gz_stored), out, sizeof(out),
			       &work),
			19);
	KUNIT_EXPECT_STREQ(test, out, "hello, stored block");
}

static void inflate_test_fixed(struct kunit *test)
{
	u8 *out = kunit_kzalloc(test, GZ_FIXED_LEN, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, out);
	KUNIT_EXPECT_EQ(test,
			gunzip(gz_fixed, sizeof(gz_fixed), out, GZ_FIXED_LEN,
			       &work),
			GZ_FIXED_LEN);
	KUNIT_EXPECT_EQ(test, crc32_le(0, out, GZ_FIXED_LEN), GZ_FIXED_CRC);
	KUNIT_EXPECT_MEMEQ(test, out, "static keys: a branch", 21);
}

static void inflate_test_dynamic(struct kunit *test)
{
	u8 *out = kunit_kzalloc(test, GZ_DYNAMIC_LEN, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, out);
	KUNIT_EXPECT_EQ(test, gzip_size(gz_dynamic, sizeof(gz_dynamic)),
			GZ_DYNAMIC_LEN);
	KUNIT_EXPECT_EQ(test,
			gunzip(gz_dynamic, sizeof(gz_dynamic), out,
			       GZ_DYNAMIC_LEN, &work),
			GZ_DYNAMIC_LEN);
	KUNIT_EXPECT_EQ(test, crc32_le(0, out, GZ_DYNAMIC_LEN), GZ_DYNAMIC_CRC);
}

/* Too little room, a truncated stream, a wrong CRC or length, no gzip. */
static void inflate_test_refused(struct kunit *test)
{
	size_t n = sizeof(gz_dynamic);
	u8 *bad = kunit_kzalloc(test, n, GFP_KERNEL);
	u8 *out = kunit_kzalloc(test, GZ_DYNAMIC_LEN, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, bad);
	KUNIT_ASSERT_NOT_NULL(test, out);
	KUNIT_EXPECT_EQ(test,
			gunzip(gz_dynamic, n, out, GZ_DYNAMIC_LEN - 1, &work),
			-ENOSPC);
	/* The last 8 bytes are the trailer: cut into the stream. */
	memcpy(bad, gz_dynamic, n);
	memmove(bad + n - 40, bad + n - 8, 8);
	KUNIT_EXPECT_EQ(test, gunzip(bad, n - 32, out, GZ_DYNAMIC_LEN, &work),
			-EINVAL);
	memcpy(bad, gz_dynamic, n);
	bad[n - 8] ^= 1; /* the CRC */
	KUNIT_EXPECT_EQ(test, gunzip(bad, n, out, GZ_DYNAMIC_LEN, &work),
			-EBADMSG);
	memcpy(bad, gz_dynamic, n);
	bad[n - 4] ^= 1; /* the length */
	KUNIT_EXPECT_EQ(test, gunzip(bad, n, out, GZ_DYNAMIC_LEN, &work),
			-EBADMSG);
	memcpy(bad, gz_dynamic, n);
	bad[2] = 7; /* not deflate */
	KUNIT_EXPECT_FALSE(test, is_gzip(bad, n));
	KUNIT_EXPECT_EQ(test, gzip_size(bad, n), 0);
	KUNIT_EXPECT_EQ(test, gunzip(bad, n, out, GZ_DYNAMIC_LEN, &work),
			-EINVAL);
	memcpy(bad, gz_dynamic, n);
	bad[10] |= 6; /* block type 3, which does not exist */
	KUNIT_EXPECT_EQ(test, gunzip(bad, n, out, GZ_DYNAMIC_LEN, &work),
			-EINVAL);
}

static struct kunit_case inflate_test_cases[] = {
	KUNIT_CASE(inflate_test_crc32),	  KUNIT_CASE(inflate_test_stored),
	KUNIT_CASE(inflate_test_fixed),	  KUNIT_CASE(inflate_test_dynamic),
	KUNIT_CASE(inflate_test_refused), {}
};

static struct kunit_suite inflate_test_suite = {
	.name = "inflate",
	.test_cases = inflate_test_cases,
};
kunit_test_suite(inflate_test_suite);
