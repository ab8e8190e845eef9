// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for lib/vsprintf.c and lib/string.c.
 */

#include <kunit/test.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/string.h>

#define BUF_LEN 256

/*
 * Formats into a fresh buffer and checks both the string and the return
 * value, which must be the string's length.
 */
#define EXPECT_FMT(test, expect, fmt, ...)                                    \
	do {                                                                  \
		char __buf[BUF_LEN];                                          \
		int __ret;                                                    \
									      \
		memset(__buf, 0x5a, sizeof(__buf));                           \
		__ret = snprintf(__buf, sizeof(__buf), fmt, ##__VA_ARGS__);   \
		KUNIT_EXPECT_STREQ_MSG(test, __buf, expect, "format '%s'",    \
				       fmt);                                  \
		KUNIT_EXPECT_EQ_MSG(test, __ret, (int)strlen(expect),         \
				    "format '%s'", fmt);                      \
	} while (0)

/* A function of this file whose address %pS must turn into its name. */
void vsprintf_test_marker(void);

static volatile int vsprintf_test_marker_calls;

noinline void vsprintf_test_marker(void)
{
	vsprintf_test_marker_calls++;
	barrier();
}

static void vsprintf_test_int(struct kunit *test)
{
	EXPECT_FMT(test, "0 1 -1", "%d %i %d", 0, 1, -1);
	EXPECT_FMT(test, "2147483647", "%d", INT_MAX);
	EXPECT_FMT(test, "-2147483648", "%d", INT_MIN);
	EXPECT_FMT(test, "4294967295", "%u", UINT_MAX);
	EXPECT_FMT(test, "-2147483648", "%i", INT_MIN);
	EXPECT_FMT(test, "ffffffff FFFFFFFF 37777777777", "%x %X %o",
		   UINT_MAX, UINT_MAX, UINT_MAX);
	EXPECT_FMT(test, "deadbeef DEADBEEF", "%x %X", 0xdeadbeefU,
		   0xdeadbeefU);
	EXPECT_FMT(test, "777 0", "%o %o", 0777U, 0U);
}

static void vsprintf_test_length(struct kunit *test)
{
	/* hh and h truncate what was promoted to int. */
	EXPECT_FMT(test, "-56 200 -128 127", "%hhd %hhu %hhd %hhd", 200, 200,
		   -128, 127);
	EXPECT_FMT(test, "5 ff", "%hhu %hhx", 0x105, 0x1ff);
	EXPECT_FMT(test, "-32768 32767 65535 1", "%hd %hd %hu %hu", -32768,
		   32767, 65535, 65537);
	EXPECT_FMT(test, "-9223372036854775808", "%ld", LONG_MIN);
	EXPECT_FMT(test, "9223372036854775807", "%ld", LONG_MAX);
	EXPECT_FMT(test, "18446744073709551615", "%lu", ULONG_MAX);
	EXPECT_FMT(test, "-9223372036854775808", "%lld", LLONG_MIN);
	EXPECT_FMT(test, "9223372036854775807", "%lli", LLONG_MAX);
	EXPECT_FMT(test, "18446744073709551615", "%llu", ULLONG_MAX);
	EXPECT_FMT(test, "ffffffffffffffff", "%llx", ULLONG_MAX);
	EXPECT_FMT(test, "1777777777777777777777", "%llo", ULLONG_MAX);
	EXPECT_FMT(test, "123456789ABCDEF0", "%llX", 0x123456789abcdef0ULL);
	EXPECT_FMT(test, "18446744073709551615 -1", "%zu %zd", (size_t)-1,
		   (ssize_t)-1);
	EXPECT_FMT(test, "-3 fffffffffffffffd", "%td %tx", (ptrdiff_t)-3,
		   (ptrdiff_t)-3);
}

static void vsprintf_test_width(struct kunit *test)
{
	EXPECT_FMT(test, "[   42]", "[%5d]", 42);
	EXPECT_FMT(test, "[42   ]", "[%-5d]", 42);
	EXPECT_FMT(test, "[00042]", "[%05d]", 42);
	EXPECT_FMT(test, "[-0042]", "[%05d]", -42);
	EXPECT_FMT(test, "[+42] [ 42] [-42]", "[%+d] [% d] [% d]", 42, 42,
		   -42);
	EXPECT_FMT(test, "[  +42]", "[%+5d]", 42);
	EXPECT_FMT(test, "[+0042]", "[%+05d]", 42);
	EXPECT_FMT(test, "[123456]", "[%3d]", 123456);
	EXPECT_FMT(test, "[   42]", "[%*d]", 5, 42);
	EXPECT_FMT(test, "[42   ]", "[%*d]", -5, 42);
	EXPECT_FMT(test, "[42   ]", "[%-*d]", 5, 42);
	EXPECT_FMT(test, "[0x1f] [0X1F] [017]", "[%#x] [%#X] [%#o]", 0x1f,
		   0x1f, 017);
	/* No prefix on 0, and '0' padding goes between prefix and digits. */
	EXPECT_FMT(test, "[0] [0]", "[%#x] [%#o]", 0, 0);
	EXPECT_FMT(test, "[0x00ff] [  0xff]", "[%#06x] [%#6x]", 0xff, 0xff);
	EXPECT_FMT(test, "[ffff    ]", "[%-8x]", 0xffff);
}

static void vsprintf_test_precision(struct kunit *test)
{
	/* A non-literal format: gcc warns about '0' with a precision. */
	const char *zero_and_prec = "[%08.3d]";

	EXPECT_FMT(test, "[007]", "[%.3d]", 7);
	EXPECT_FMT(test, "[-007]", "[%.3d]", -7);
	EXPECT_FMT(test, "[   007]", "[%6.3d]", 7);
	EXPECT_FMT(test, "[007   ]", "[%-6.3d]", 7);
	EXPECT_FMT(test, "[     007]", zero_and_prec, 7);
	EXPECT_FMT(test, "[00beef]", "[%.6x]", 0xbeef);
	EXPECT_FMT(test, "[0x00beef]", "[%#.6x]", 0xbeef);
	EXPECT_FMT(test, "[00012]", "[%#.5o]", 012);
	/* Precision 0 prints no digits for 0, except "%#o" keeps its 0. */
	EXPECT_FMT(test, "[] [] [0] [+]", "[%.0d] [%.0x] [%#.0o] [%+.0d]", 0,
		   0U, 0U, 0);
	EXPECT_FMT(test, "[  ]", "[%2.0d]", 0);
	EXPECT_FMT(test, "[007]", "[%.*d]", 3, 7);
	/* A negative precision from '*' is as if there were none. */
	EXPECT_FMT(test, "[7]", "[%.*d]", -3, 7);
	EXPECT_FMT(test, "[  007]", "[%*.*d]", 5, 3, 7);
}

static void vsprintf_test_string(struct kunit *test)
{
	/* volatile: gcc would warn about a NULL it can see. */
	const char *volatile null_str = NULL;

	EXPECT_FMT(test, "hello", "%s", "hello");
	EXPECT_FMT(test, "", "%s", "");
	EXPECT_FMT(test, "[     hello]", "[%10s]", "hello");
	EXPECT_FMT(test, "[hello     ]", "[%-10s]", "hello");
	EXPECT_FMT(test, "[hel]", "[%.3s]", "hello");
	EXPECT_FMT(test, "[       hel]", "[%10.3s]", "hello");
	EXPECT_FMT(test, "[hel]", "[%.*s]", 3, "hello");
	EXPECT_FMT(test, "[hello]", "[%.10s]", "hello");
	EXPECT_FMT(test, "[he]", "[%.2s]", "he\0llo");
	EXPECT_FMT(test, "(null)", "%s", null_str);
	EXPECT_FMT(test, "[  (null)]", "[%8s]", null_str);
	EXPECT_FMT(test, "a b", "%c %c", 'a', 'b');
	EXPECT_FMT(test, "[  x] [x  ]", "[%3c] [%-3c]", 'x', 'x');
	EXPECT_FMT(test, "100%", "100%%");
	EXPECT_FMT(test, "a%b", "a%%%c", 'b');
	EXPECT_FMT(test, "x=1 y=two z=3", "x=%d y=%s z=%u", 1, "two", 3U);
}

static void vsprintf_test_pointer(struct kunit *test)
{
	void *kptr = (void *)0xffffffff80100000UL;
	phys_addr_t phys = 0x1234abcdULL;

	EXPECT_FMT(test, "0xffffffff80100000", "%p", kptr);
	EXPECT_FMT(test, "0x0000000000000000", "%p", NULL);
	EXPECT_FMT(test, "0x0000000000001000", "%p", (void *)0x1000);
	EXPECT_FMT(test, "0xffffffff80100000", "%px", kptr);
	EXPECT_FMT(test, "[  0x0000000000000010]", "[%20p]", (void *)0x10);
	EXPECT_FMT(test, "[0x0000000000000010  ]", "[%-20p]", (void *)0x10);
	EXPECT_FMT(test, "0x000000001234abcd", "%pa", &phys);
	EXPECT_FMT(test, "0x000000001234abcd", "%pap", &phys);
	/* Unknown extensions print the pointer and vanish. */
	EXPECT_FMT(test, "0x0000000000000010!", "%pZ!", (void *)0x10);
	EXPECT_FMT(test, "0x0000000000000010 x", "%pKabc9 x", (void *)0x10);
	/* The pointer is not followed by letters; other text is kept. */
	EXPECT_FMT(test, "0x0000000000000010-0x0000000000000020", "%p-%p",
		   (void *)0x10, (void *)0x20);
}

static void vsprintf_test_hex_dump(struct kunit *test)
{
	u8 data[100];
	char buf[BUF_LEN];
	int i, ret;

	for (i = 0; i < ARRAY_SIZE(data); i++)
		data[i] = i;
	data[0] = 0xde;
	data[1] = 0xad;
	data[2] = 0xbe;
	data[3] = 0xef;

	EXPECT_FMT(test, "de ad be ef", "%*ph", 4, data);
	EXPECT_FMT(test, "de:ad:be:ef", "%*phC", 4, data);
	EXPECT_FMT(test, "de-ad-be-ef", "%*phD", 4, data);
	EXPECT_FMT(test, "deadbeef", "%*phN", 4, data);
	EXPECT_FMT(test, "de", "%ph", data);
	EXPECT_FMT(test, "[]", "[%*ph]", 0, data);
	EXPECT_FMT(test, "<de ad>.", "<%*ph>.", 2, data);

	/* At most 64 bytes. */
	ret = snprintf(buf, sizeof(buf), "%*ph", 100, data);
	KUNIT_EXPECT_EQ(test, ret, 64 * 3 - 1);
	KUNIT_EXPECT_EQ(test, strlen(buf), 64 * 3 - 1);
	KUNIT_EXPECT_STREQ(test, buf + 60 * 3, "3c 3d 3e 3f");
	ret = snprintf(buf, sizeof(buf), "%*phN", 100, data);
	KUNIT_EXPECT_EQ(test, ret, 128);
}

/* %ps of a module's symbol names the module too, as in Linux. */
#ifdef MODULE
#define VT_MOD " [" KBUILD_MODNAME "]"
#define VT_PADDED "[%-38ps]"
#else
#define VT_MOD ""
#define VT_PADDED "[%-22ps]"
#endif

static void vsprintf_test_symbol(struct kunit *test)
{
	static const char prefix[] = "vsprintf_test_marker+0x0/0x";
	void *fn = (void *)vsprintf_test_marker;
	char buf[BUF_LEN];
	int calls = vsprintf_test_marker_calls;
	int ret;

	vsprintf_test_marker();
	KUNIT_EXPECT_EQ(test, vsprintf_test_marker_calls, calls + 1);

	ret = snprintf(buf, sizeof(buf), "%pS", fn);
	KUNIT_EXPECT_EQ(test, ret, (int)strlen(buf));
	KUNIT_EXPECT_TRUE_MSG(test, !strncmp(buf, prefix, strlen(prefix)),
			      "%%pS gave \"%s\"", buf);
	/* The size is a hex number that is not 0. */
	KUNIT_EXPECT_GT(test, strlen(buf), strlen(prefix));
	KUNIT_EXPECT_NE(test, buf[strlen(prefix)], '0');

	/* %pB names the symbol of addr - 1: a return address one past a
	 * function's last call still belongs to that function. */
	snprintf(buf, sizeof(buf), "%pB", (char *)fn + 1);
	KUNIT_EXPECT_TRUE_MSG(test,
			      !strncmp(buf, "vsprintf_test_marker+0x1/0x", 27),
			      "%%pB gave \"%s\"", buf);

	EXPECT_FMT(test, "vsprintf_test_marker" VT_MOD, "%ps", fn);
	EXPECT_FMT(test, "[vsprintf_test_marker" VT_MOD "  ]", VT_PADDED, fn);
	EXPECT_FMT(test, "<vsprintf_test_marker" VT_MOD ">", "<%ps>", fn);
}

static void vsprintf_test_truncation(struct kunit *test)
{
	char buf[16];
	int ret;

	/* Size 0: nothing written, NULL allowed, full length returned. */
	memset(buf, 'x', sizeof(buf));
	KUNIT_EXPECT_EQ(test, snprintf(buf, 0, "hello"), 5);
	KUNIT_EXPECT_EQ(test, buf[0], 'x');
	KUNIT_EXPECT_EQ(test, snprintf(NULL, 0, "%d", 12345), 5);

	KUNIT_EXPECT_EQ(test, snprintf(buf, 1, "hello"), 5);
	KUNIT_EXPECT_STREQ(test, buf, "");
	KUNIT_EXPECT_EQ(test, buf[1], 'x');

	memset(buf, 'x', sizeof(buf));
	KUNIT_EXPECT_EQ(test, snprintf(buf, 5, "hello"), 5);
	KUNIT_EXPECT_STREQ(test, buf, "hell");
	KUNIT_EXPECT_EQ(test, snprintf(buf, 6, "hello"), 5);
	KUNIT_EXPECT_STREQ(test, buf, "hello");
	KUNIT_EXPECT_EQ(test, buf[6], 'x');

	/* Truncated inside a padded number. */
	KUNIT_EXPECT_EQ(test, snprintf(buf, 4, "%6d", -42), 6);
	KUNIT_EXPECT_STREQ(test, buf, "   ");
	KUNIT_EXPECT_EQ(test, snprintf(buf, 3, "%s%s", "ab", "cd"), 4);
	KUNIT_EXPECT_STREQ(test, buf, "ab");

	ret = sprintf(buf, "%s-%d", "ab", 12);
	KUNIT_EXPECT_EQ(test, ret, 5);
	KUNIT_EXPECT_STREQ(test, buf, "ab-12");
}

static void vsprintf_test_scnprintf(struct kunit *test)
{
	char buf[8];

	memset(buf, 'x', sizeof(buf));
	KUNIT_EXPECT_EQ(test, scnprintf(buf, 0, "hello"), 0);
	KUNIT_EXPECT_EQ(test, buf[0], 'x');
	KUNIT_EXPECT_EQ(test, scnprintf(buf, 1, "hello"), 0);
	KUNIT_EXPECT_STREQ(test, buf, "");
	KUNIT_EXPECT_EQ(test, scnprintf(buf, 4, "hello"), 3);
	KUNIT_EXPECT_STREQ(test, buf, "hel");
	KUNIT_EXPECT_EQ(test, scnprintf(buf, 6, "hello"), 5);
	KUNIT_EXPECT_STREQ(test, buf, "hello");
	KUNIT_EXPECT_EQ(test, scnprintf(buf, sizeof(buf), "%d", 123456789),
			7);
	KUNIT_EXPECT_STREQ(test, buf, "1234567");
	KUNIT_EXPECT_EQ(test, scnprintf(buf, sizeof(buf), "%s", ""), 0);
}

static void vsprintf_test_kstrtoul(struct kunit *test)
{
	unsigned long v;

	KUNIT_EXPECT_EQ(test, kstrtoul("123", 10, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 123UL);
	KUNIT_EXPECT_EQ(test, kstrtoul("+7\n", 10, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 7UL);
	KUNIT_EXPECT_EQ(test, kstrtoul("0x1f", 0, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 0x1fUL);
	KUNIT_EXPECT_EQ(test, kstrtoul("0X1F", 0, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 0x1fUL);
	KUNIT_EXPECT_EQ(test, kstrtoul("0755", 0, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 0755UL);
	KUNIT_EXPECT_EQ(test, kstrtoul("0", 0, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 0UL);
	KUNIT_EXPECT_EQ(test, kstrtoul("ff", 16, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 0xffUL);
	KUNIT_EXPECT_EQ(test, kstrtoul("0xff", 16, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 0xffUL);
	KUNIT_EXPECT_EQ(test, kstrtoul("101", 2, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 5UL);
	KUNIT_EXPECT_EQ(test, kstrtoul("18446744073709551615", 10, &v), 0);
	KUNIT_EXPECT_EQ(test, v, ULONG_MAX);
	KUNIT_EXPECT_EQ(test, kstrtoul("0xffffffffffffffff", 0, &v), 0);
	KUNIT_EXPECT_EQ(test, v, ULONG_MAX);

	/* Errors leave the result alone. */
	v = 99;
	KUNIT_EXPECT_EQ(test, kstrtoul("18446744073709551616", 10, &v),
			-ERANGE);
	KUNIT_EXPECT_EQ(test, kstrtoul("0x10000000000000000", 0, &v),
			-ERANGE);
	KUNIT_EXPECT_EQ(test, kstrtoul("", 10, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, kstrtoul("\n", 10, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, kstrtoul("12\n\n", 10, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, kstrtoul("12a", 10, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, kstrtoul(" 12", 10, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, kstrtoul("12 ", 10, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, kstrtoul("-1", 10, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, kstrtoul("+", 10, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, kstrtoul("0x", 0, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, kstrtoul("0x", 16, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, kstrtoul("08", 0, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, kstrtoul("2", 2, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, v, 99UL);
}

static void vsprintf_test_kstrtoint(struct kunit *test)
{
	int v;

	KUNIT_EXPECT_EQ(test, kstrtoint("-42", 10, &v), 0);
	KUNIT_EXPECT_EQ(test, v, -42);
	KUNIT_EXPECT_EQ(test, kstrtoint("+42\n", 10, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 42);
	KUNIT_EXPECT_EQ(test, kstrtoint("2147483647", 10, &v), 0);
	KUNIT_EXPECT_EQ(test, v, INT_MAX);
	KUNIT_EXPECT_EQ(test, kstrtoint("-2147483648", 10, &v), 0);
	KUNIT_EXPECT_EQ(test, v, INT_MIN);
	KUNIT_EXPECT_EQ(test, kstrtoint("-0x10", 0, &v), 0);
	KUNIT_EXPECT_EQ(test, v, -16);
	KUNIT_EXPECT_EQ(test, kstrtoint("-0", 10, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 0);

	v = 99;
	KUNIT_EXPECT_EQ(test, kstrtoint("2147483648", 10, &v), -ERANGE);
	KUNIT_EXPECT_EQ(test, kstrtoint("-2147483649", 10, &v), -ERANGE);
	KUNIT_EXPECT_EQ(test, kstrtoint("99999999999999999999999", 10, &v),
			-ERANGE);
	KUNIT_EXPECT_EQ(test, kstrtoint("--1", 10, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, kstrtoint("-+1", 10, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, kstrtoint("-", 10, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, kstrtoint("abc", 10, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, kstrtoint("1.5", 10, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, v, 99);
}

static void vsprintf_test_simple_strtoul(struct kunit *test)
{
	char *end;

	KUNIT_EXPECT_EQ(test, simple_strtoul("0x1fz", &end, 0), 0x1fUL);
	KUNIT_EXPECT_EQ(test, *end, 'z');
	KUNIT_EXPECT_EQ(test, simple_strtoul("077 ", &end, 0), 077UL);
	KUNIT_EXPECT_EQ(test, *end, ' ');
	KUNIT_EXPECT_EQ(test, simple_strtoul("42", &end, 10), 42UL);
	KUNIT_EXPECT_EQ(test, *end, '\0');
	KUNIT_EXPECT_EQ(test, simple_strtoul("ABC", &end, 16), 0xabcUL);
	KUNIT_EXPECT_EQ(test, simple_strtoul("x1", &end, 10), 0UL);
	KUNIT_EXPECT_EQ(test, *end, 'x');
	KUNIT_EXPECT_EQ(test, simple_strtoul("123", NULL, 0), 123UL);
}

static void string_test_mem(struct kunit *test)
{
	char buf[32];
	char src[] = "0123456789";

	KUNIT_EXPECT_PTR_EQ(test, memset(buf, 'a', sizeof(buf)), buf);
	KUNIT_EXPECT_EQ(test, buf[0], 'a');
	KUNIT_EXPECT_EQ(test, buf[31], 'a');
	memset(buf + 4, 0x1ff, 3);	/* only the low byte counts */
	KUNIT_EXPECT_MEMEQ(test, buf + 3, "a\xff\xff\xff" "a", 5);
	memset(buf, 'b', 0);
	KUNIT_EXPECT_EQ(test, buf[0], 'a');

	KUNIT_EXPECT_PTR_EQ(test, memcpy(buf, src, sizeof(src)), buf);
	KUNIT_EXPECT_STREQ(test, buf, "0123456789");

	/* Overlapping both ways. */
	KUNIT_EXPECT_PTR_EQ(test, memmove(buf + 2, buf, 8), buf + 2);
	KUNIT_EXPECT_STREQ(test, buf, "0101234567");
	memcpy(buf, src, sizeof(src));
	memmove(buf, buf + 3, 8);
	KUNIT_EXPECT_STREQ(test, buf, "3456789");
	memcpy(buf, src, sizeof(src));
	memmove(buf + 1, buf, 0);
	KUNIT_EXPECT_STREQ(test, buf, "0123456789");

	KUNIT_EXPECT_EQ(test, memcmp("abc", "abc", 3), 0);
	KUNIT_EXPECT_LT(test, memcmp("abc", "abd", 3), 0);
	KUNIT_EXPECT_GT(test, memcmp("abd", "abc", 3), 0);
	KUNIT_EXPECT_EQ(test, memcmp("abc", "abd", 2), 0);
	KUNIT_EXPECT_EQ(test, memcmp("x", "y", 0), 0);
	/* Bytes compare as unsigned. */
	KUNIT_EXPECT_GT(test, memcmp("\x80", "\x7f", 1), 0);
}

static void string_test_str(struct kunit *test)
{
	const char *s = "hello, world";
	const char *t = "aaab";

	KUNIT_EXPECT_EQ(test, strlen(""), 0);
	KUNIT_EXPECT_EQ(test, strlen(s), 12);
	KUNIT_EXPECT_EQ(test, strnlen(s, 5), 5);
	KUNIT_EXPECT_EQ(test, strnlen(s, 100), 12);
	KUNIT_EXPECT_EQ(test, strnlen(s, 0), 0);

	KUNIT_EXPECT_EQ(test, strcmp("abc", "abc"), 0);
	KUNIT_EXPECT_LT(test, strcmp("abc", "abd"), 0);
	KUNIT_EXPECT_GT(test, strcmp("abd", "abc"), 0);
	KUNIT_EXPECT_LT(test, strcmp("ab", "abc"), 0);
	KUNIT_EXPECT_GT(test, strcmp("abc", "ab"), 0);
	KUNIT_EXPECT_GT(test, strcmp("\xff", "a"), 0);
	KUNIT_EXPECT_EQ(test, strncmp("abcx", "abcy", 3), 0);
	KUNIT_EXPECT_LT(test, strncmp("abcx", "abcy", 4), 0);
	KUNIT_EXPECT_EQ(test, strncmp("ab", "ab", 10), 0);
	KUNIT_EXPECT_EQ(test, strncmp("a", "b", 0), 0);

	KUNIT_EXPECT_PTR_EQ(test, strchr(s, 'o'), s + 4);
	KUNIT_EXPECT_PTR_EQ(test, strrchr(s, 'o'), s + 8);
	KUNIT_EXPECT_NULL(test, strchr(s, 'z'));
	KUNIT_EXPECT_NULL(test, strrchr(s, 'z'));
	KUNIT_EXPECT_PTR_EQ(test, strchr(s, '\0'), s + 12);
	KUNIT_EXPECT_PTR_EQ(test, strrchr(s, '\0'), s + 12);

	KUNIT_EXPECT_PTR_EQ(test, strstr(s, "world"), s + 7);
	KUNIT_EXPECT_PTR_EQ(test, strstr(s, "o"), s + 4);
	KUNIT_EXPECT_PTR_EQ(test, strstr(s, ""), s);
	KUNIT_EXPECT_PTR_EQ(test, strstr(s, s), s);
	KUNIT_EXPECT_NULL(test, strstr(s, "worlds"));
	KUNIT_EXPECT_NULL(test, strstr("", "a"));
	/* A partial match must not hide a match that starts inside it. */
	KUNIT_EXPECT_PTR_EQ(test, strstr(t, "aab"), t + 1);
}

static void string_test_strscpy(struct kunit *test)
{
	char buf[8];

	memset(buf, 'x', sizeof(buf));
	KUNIT_EXPECT_EQ(test, strscpy(buf, "abc", sizeof(buf)), 3);
	KUNIT_EXPECT_STREQ(test, buf, "abc");
	KUNIT_EXPECT_EQ(test, buf[4], 'x');

	KUNIT_EXPECT_EQ(test, strscpy(buf, "1234567", sizeof(buf)), 7);
	KUNIT_EXPECT_STREQ(test, buf, "1234567");

	KUNIT_EXPECT_EQ(test, strscpy(buf, "12345678", sizeof(buf)),
			(size_t)-E2BIG);
	KUNIT_EXPECT_STREQ(test, buf, "1234567");

	KUNIT_EXPECT_EQ(test, strscpy(buf, "", sizeof(buf)), 0);
	KUNIT_EXPECT_STREQ(test, buf, "");

	KUNIT_EXPECT_EQ(test, strscpy(buf, "ab", 1), (size_t)-E2BIG);
	KUNIT_EXPECT_STREQ(test, buf, "");

	buf[0] = 'q';
	KUNIT_EXPECT_EQ(test, strscpy(buf, "ab", 0), (size_t)-E2BIG);
	KUNIT_EXPECT_EQ(test, buf[0], 'q');
}

/* The pattern ends after len characters, wherever its NUL is. */
static void string_test_glob_match_len(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, glob_match_len("abc.def", 3, "abc"));
	KUNIT_EXPECT_FALSE(test, glob_match_len("abc.def", 3, "abc.def"));
	KUNIT_EXPECT_TRUE(test, glob_match_len("a*", 1, "a"));
	KUNIT_EXPECT_FALSE(test, glob_match_len("a*", 1, "ab"));
	KUNIT_EXPECT_TRUE(test, glob_match_len("", 0, ""));
	/* A class or an escape cut by the end is ordinary text. */
	KUNIT_EXPECT_TRUE(test, glob_match_len("a[bc]", 3, "a[b"));
	KUNIT_EXPECT_FALSE(test, glob_match_len("a[bc]", 3, "ab"));
	KUNIT_EXPECT_TRUE(test, glob_match_len("a[b-d]", 5, "a[b-d"));
	KUNIT_EXPECT_TRUE(test, glob_match_len("a\\b", 2, "a\\"));
	/* A NUL before len ends it as well. */
	KUNIT_EXPECT_TRUE(test, glob_match_len("ab", 10, "ab"));
}

static void string_test_glob_match(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, glob_match("abc", "abc"));
	KUNIT_EXPECT_FALSE(test, glob_match("abc", "abcd"));
	KUNIT_EXPECT_FALSE(test, glob_match("abcd", "abc"));
	KUNIT_EXPECT_TRUE(test, glob_match("", ""));
	KUNIT_EXPECT_FALSE(test, glob_match("", "a"));

	KUNIT_EXPECT_TRUE(test, glob_match("*", ""));
	KUNIT_EXPECT_TRUE(test, glob_match("*", "anything/at all"));
	KUNIT_EXPECT_TRUE(test, glob_match("vsprintf*", "vsprintf"));
	KUNIT_EXPECT_TRUE(test, glob_match("vsprintf*", "vsprintf_test_int"));
	KUNIT_EXPECT_FALSE(test, glob_match("vsprintf*", "string_test"));
	KUNIT_EXPECT_TRUE(test, glob_match("*.c", "lib/string.c"));
	KUNIT_EXPECT_FALSE(test, glob_match("*.c", "lib/string.h"));
	KUNIT_EXPECT_TRUE(test, glob_match("a*b*c", "axxbyybzzc"));
	KUNIT_EXPECT_FALSE(test, glob_match("a*b*c", "axxbyybzz"));
	KUNIT_EXPECT_TRUE(test, glob_match("*aab", "aaaab"));
	KUNIT_EXPECT_TRUE(test, glob_match("**a**", "bab"));

	KUNIT_EXPECT_TRUE(test, glob_match("a?c", "abc"));
	KUNIT_EXPECT_FALSE(test, glob_match("a?c", "ac"));
	KUNIT_EXPECT_TRUE(test, glob_match("???", "xyz"));
	KUNIT_EXPECT_FALSE(test, glob_match("?", ""));

	KUNIT_EXPECT_TRUE(test, glob_match("[abc]x", "bx"));
	KUNIT_EXPECT_FALSE(test, glob_match("[abc]x", "dx"));
	KUNIT_EXPECT_TRUE(test, glob_match("sd[a-d]", "sdc"));
	KUNIT_EXPECT_FALSE(test, glob_match("sd[a-d]", "sde"));
	KUNIT_EXPECT_TRUE(test, glob_match("[!x]", "y"));
	KUNIT_EXPECT_FALSE(test, glob_match("[!x]", "x"));
	KUNIT_EXPECT_FALSE(test, glob_match("[!a-z]", "q"));
	KUNIT_EXPECT_TRUE(test, glob_match("[!a-z]", "Q"));
	KUNIT_EXPECT_TRUE(test, glob_match("[]]", "]"));
	KUNIT_EXPECT_TRUE(test, glob_match("[a-]", "-"));
	KUNIT_EXPECT_TRUE(test, glob_match("*[0-9]", "eth12"));
	KUNIT_EXPECT_FALSE(test, glob_match("[0-9]", ""));
	/* An unclosed '[' is an ordinary character. */
	KUNIT_EXPECT_TRUE(test, glob_match("a[b", "a[b"));
	KUNIT_EXPECT_FALSE(test, glob_match("a[b", "ab"));
	/* '\\' takes the next character literally. */
	KUNIT_EXPECT_TRUE(test, glob_match("a\\*", "a*"));
	KUNIT_EXPECT_FALSE(test, glob_match("a\\*", "ab"));
}

static struct kunit_case vsprintf_test_cases[] = {
	KUNIT_CASE(vsprintf_test_int),
	KUNIT_CASE(vsprintf_test_length),
	KUNIT_CASE(vsprintf_test_width),
	KUNIT_CASE(vsprintf_test_precision),
	KUNIT_CASE(vsprintf_test_string),
	KUNIT_CASE(vsprintf_test_pointer),
	KUNIT_CASE(vsprintf_test_hex_dump),
	KUNIT_CASE(vsprintf_test_symbol),
	KUNIT_CASE(vsprintf_test_truncation),
	KUNIT_CASE(vsprintf_test_scnprintf),
	KUNIT_CASE(vsprintf_test_kstrtoul),
	KUNIT_CASE(vsprintf_test_kstrtoint),
	KUNIT_CASE(vsprintf_test_simple_strtoul),
	KUNIT_CASE(string_test_mem),
	KUNIT_CASE(string_test_str),
	KUNIT_CASE(string_test_strscpy),
	KUNIT_CASE(string_test_glob_match),
	KUNIT_CASE(string_test_glob_match_len),
	{}
};

static struct kunit_suite vsprintf_test_suite = {
	.name = "vsprintf",
	.test_cases = vsprintf_test_cases,
};

kunit_test_suite(vsprintf_test_suite);
