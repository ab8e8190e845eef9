// SPDX-License-Identifier: GPL-2.0
/*
 * The command line parser: words split and decoded as GRUB hands them over
 * (kernel/params.c), the setters' checks, and a value sent by make through
 * grub.cfg and GRUB that must arrive as it was written (the "cmdline" run
 * of tests/plan.json).
 */
#include <kunit/test.h>
#include <linux/moduleparam.h>

struct params_test_word {
	const char *param;
	const char *val; /* NULL: a word without '=' */
};

#define PT_NONE "(no value)"

/* next_arg() over a copy of line must give exactly the words of want. */
static void params_test_split(struct kunit *test, const char *line,
			      const struct params_test_word *want, int n)
{
	size_t size = strlen(line) + 1;
	char *buf = kunit_kzalloc(test, size, GFP_KERNEL);
	char *s, *param, *val;
	int i = 0;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	strscpy(buf, line, size);
	for (s = next_arg(buf, &param, &val); param;
	     s = next_arg(s, &param, &val), i++) {
		KUNIT_ASSERT_TRUE_MSG(test, i < n, "extra word \"%s\" in %s",
				      param, line);
		KUNIT_EXPECT_STREQ_MSG(test, param, want[i].param, "in %s",
				       line);
		KUNIT_EXPECT_STREQ_MSG(test, val ? val : PT_NONE,
				       want[i].val ? want[i].val : PT_NONE,
				       "in %s", line);
	}
	KUNIT_EXPECT_EQ_MSG(test, i, n, "words in %s", line);
}

#define PT_SPLIT(test, line, words...)                                  \
	do {                                                            \
		static const struct params_test_word __w[] = { words }; \
		params_test_split(test, line, __w, ARRAY_SIZE(__w));    \
	} while (0)

static void params_test_plain(struct kunit *test)
{
	PT_SPLIT(test, "  a=1   b\tc= d=x=y\n", { "a", "1" }, { "b", NULL },
		 { "c", "" }, { "d", "x=y" });
	params_test_split(test, "   ", NULL, 0);
}

/* GRUB's form: a word with a blank in quotes, '\' before '\', '"', '\''. */
static void params_test_grub_quoting(struct kunit *test)
{
	PT_SPLIT(test, "\"foo=a b\" x=\\\"y\\\" z=a\\\\b c\\'d",
		 { "foo", "a b" }, { "x", "\"y\"" }, { "z", "a\\b" },
		 { "c'd", NULL });
	PT_SPLIT(test, "\"v=it\\'s \\\"q\\\"\" end", { "v", "it's \"q\"" },
		 { "end", NULL });
}

/* What README promises: foo="a b", quotes anywhere in a word. */
static void params_test_quoted_value(struct kunit *test)
{
	PT_SPLIT(test, "foo=\"a b\" bar=\"\" baz=x\" \"y", { "foo", "a b" },
		 { "bar", "" }, { "baz", "x y" });
}

/* An open quote runs to the end of the line (with a warning). */
static void params_test_open_quote(struct kunit *test)
{
	PT_SPLIT(test, "a=1 b=\"c d e", { "a", "1" }, { "b", "c d e" });
	PT_SPLIT(test, "a=b\\", { "a", "b\\" });
}

/* The spellings moduleparam.h documents, and nothing else. */
static void params_test_bool(struct kunit *test)
{
	static const char *const on[] = { "1", "y", "Y", "on" };
	static const char *const off[] = { "0", "n", "N", "off" };
	static const char *const bad[] = { "", "2", "yes", "true", "ON", "of" };
	bool b;
	struct kernel_param kp = { .arg = &b };
	int i;

	b = false;
	KUNIT_EXPECT_EQ(test, param_set_bool(NULL, &kp), 0);
	KUNIT_EXPECT_TRUE(test, b);
	for (i = 0; i < ARRAY_SIZE(on); i++) {
		b = false;
		KUNIT_EXPECT_EQ_MSG(test, param_set_bool(on[i], &kp), 0, "%s",
				    on[i]);
		KUNIT_EXPECT_TRUE_MSG(test, b, "%s", on[i]);
	}
	for (i = 0; i < ARRAY_SIZE(off); i++) {
		b = true;
		KUNIT_EXPECT_EQ_MSG(test, param_set_bool(off[i], &kp), 0, "%s",
				    off[i]);
		KUNIT_EXPECT_FALSE_MSG(test, b, "%s", off[i]);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		b = true;
		KUNIT_EXPECT_EQ_MSG(test, param_set_bool(bad[i], &kp), -EINVAL,
				    "\"%s\"", bad[i]);
		KUNIT_EXPECT_TRUE(test, b);
	}
}

/*
 * parse_args_for() gives a parameter what boot gave it: every word that
 * names it, in order ('-' and '_' alike), a refused one changing nothing.
 */
static void params_test_parse_for(struct kunit *test)
{
	bool b = true;
	const struct kernel_param kp = { .name = "pt_x.on",
					 .set = param_set_bool,
					 .arg = &b };

	KUNIT_EXPECT_EQ(test, parse_args_for("a=1 pt-x.on=0 b", &kp), 1);
	KUNIT_EXPECT_FALSE(test, b);
	KUNIT_EXPECT_EQ(test, parse_args_for("pt_x.on=0 pt-x.on=on", &kp), 2);
	KUNIT_EXPECT_TRUE(test, b);
	KUNIT_EXPECT_EQ(test, parse_args_for("pt_x.on=off pt_x.on=bogus", &kp),
			2);
	KUNIT_EXPECT_FALSE(test, b);
	KUNIT_EXPECT_EQ(test, parse_args_for("pt_x.on", &kp), 1);
	KUNIT_EXPECT_TRUE(test, b);
	KUNIT_EXPECT_EQ(test, parse_args_for("\"pt_x.on=n\" pt_x.onx=1", &kp),
			1);
	KUNIT_EXPECT_FALSE(test, b);
	KUNIT_EXPECT_EQ(test, parse_args_for("", &kp), 0);
	KUNIT_EXPECT_FALSE(test, b);
}

/* loglevel= outside 0..8 (or not a number) is refused; the level stays. */
static void params_test_loglevel(struct kunit *test)
{
	static const char *const bad[] = { "9", "-1", "100", "x", "", "7x" };
	int level = 5, i;
	struct kernel_param kp = { .arg = &level };

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		KUNIT_EXPECT_LT_MSG(test, param_set_loglevel(bad[i], &kp), 0,
				    "loglevel=%s", bad[i]);
		KUNIT_EXPECT_EQ(test, level, 5);
	}
	KUNIT_EXPECT_EQ(test, param_set_loglevel("9", &kp), -ERANGE);
	KUNIT_EXPECT_EQ(test, param_set_loglevel("0", &kp), 0);
	KUNIT_EXPECT_EQ(test, level, 0);
	KUNIT_EXPECT_EQ(test, param_set_loglevel("8", &kp), 0);
	KUNIT_EXPECT_EQ(test, level, 8);
}

static char *pt_echo, *pt_echo_hex;
core_param_named("params_test.echo", pt_echo, charp);
core_param_named("params_test.echo_hex", pt_echo_hex, charp);

static int pt_hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -EINVAL;
}

/* hex into buf (NUL-terminated); the number of bytes, or -EINVAL. */
static int pt_unhex(const char *hex, char *buf, size_t size)
{
	size_t n = 0;

	for (; hex[0] && hex[1] && n + 1 < size; hex += 2) {
		int hi = pt_hex_digit(hex[0]), lo = pt_hex_digit(hex[1]);

		if (hi < 0 || lo < 0)
			return -EINVAL;
		buf[n++] = hi << 4 | lo;
	}
	buf[n] = '\0';
	return *hex ? -EINVAL : n;
}

/*
 * params_test.echo=TEXT and params_test.echo_hex=HEX, TEXT's bytes in hex,
 * went through make, grub.cfg and GRUB: TEXT must arrive as written.
 */
static void params_test_from_make(struct kunit *test)
{
	size_t size;
	char *want;

	if (!pt_echo_hex)
		kunit_skip(
			test,
			"boot with params_test.echo=TEXT params_test.echo_hex=HEX(TEXT)");
	KUNIT_ASSERT_NOT_NULL_MSG(test, pt_echo, "params_test.echo is missing");
	size = strlen(pt_echo_hex) / 2 + 1;
	want = kunit_kzalloc(test, size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, want);
	KUNIT_ASSERT_GE(test, pt_unhex(pt_echo_hex, want, size), 0);
	KUNIT_EXPECT_STREQ(test, pt_echo, want);
}

static struct kunit_case params_test_cases[] = {
	KUNIT_CASE(params_test_plain),
	KUNIT_CASE(params_test_grub_quoting),
	KUNIT_CASE(params_test_quoted_value),
	KUNIT_CASE(params_test_open_quote),
	KUNIT_CASE(params_test_bool),
	KUNIT_CASE(params_test_parse_for),
	KUNIT_CASE(params_test_loglevel),
	KUNIT_CASE(params_test_from_make),
	{}
};

static struct kunit_suite params_test_suite = {
	.name = "params",
	.test_cases = params_test_cases,
};
kunit_test_suite(params_test_suite);
