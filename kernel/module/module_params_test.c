// SPDX-License-Identifier: GPL-2.0
/*
 * Module parameters and Linux's module API, with the modules of
 * tests/modules/linuxapi/: lx_params's parameters of every type set by
 * load_module(name, args) before init and read back through their getters
 * (module_params_show()); each kind of bad argument refused with its one
 * line (module, parameter, value) and the errno Linux gives, leaking
 * nothing; the old static-key API used across two modules; a module's
 * DEFINE_STATIC_KEY_MAYBE_RO keys; built-in module_param()s set from the
 * command line as KBUILD_MODNAME.name.
 */
#include <linux/kernel.h>
#include <linux/err.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/rcupdate.h>
#include <linux/string.h>
#include <fixtures/mem_snapshot.h>
#include <kunit/test.h>

#define MPT_VALUES 512

/* What module_params_show() wrote: "name=value\n" per parameter. */
struct mpt_shown {
	char buf[MPT_VALUES];
	size_t len;
};

static void mpt_emit(const char *name, const char *value, void *data)
{
	struct mpt_shown *shown = data;

	shown->len += scnprintf(shown->buf + shown->len,
				sizeof(shown->buf) - shown->len, "%s=%s\n",
				name, value);
}

/* "name=value" is one of the lines shown. */
static bool mpt_has(const struct mpt_shown *shown, const char *line)
{
	size_t n = strlen(line);
	const char *p = shown->buf;

	for (; (p = strstr(p, line)); p++)
		if ((p == shown->buf || p[-1] == '\n') && p[n] == '\n')
			return true;
	return false;
}

static void mpt_show(struct kunit *test, const char *name,
		     struct mpt_shown *shown)
{
	struct module *mod;

	shown->len = 0;
	shown->buf[0] = '\0';
	mutex_lock(&module_mutex);
	mod = find_module(name);
	KUNIT_ASSERT_NOT_NULL(test, mod);
	KUNIT_EXPECT_EQ(test, module_params_show(mod, mpt_emit, shown), 0);
	mutex_unlock(&module_mutex);
}

#define MPT_EXPECT_SHOWN(test, shown, line)                                \
	KUNIT_EXPECT_TRUE_MSG(test, mpt_has(shown, line), "no %s in:\n%s", \
			      line, (shown)->buf)

static void mpt_load(struct kunit *test, const char *name, const char *args)
{
	struct module *mod = load_module(name, args);

	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(mod), "load_module(%s, %s): %ld",
			       name, args, IS_ERR(mod) ? PTR_ERR(mod) : 0L);
}

/* Without arguments every parameter keeps its default. */
static void mpt_test_defaults(struct kunit *test)
{
	static struct mpt_shown shown;

	mpt_load(test, "lx_params", NULL);
	mpt_show(test, "lx_params", &shown);
	MPT_EXPECT_SHOWN(test, &shown, "b=N");
	MPT_EXPECT_SHOWN(test, &shown, "ib=Y");
	MPT_EXPECT_SHOWN(test, &shown, "by=7");
	MPT_EXPECT_SHOWN(test, &shown, "sh=-3");
	MPT_EXPECT_SHOWN(test, &shown, "us=3");
	MPT_EXPECT_SHOWN(test, &shown, "x=1");
	MPT_EXPECT_SHOWN(test, &shown, "ui=2");
	MPT_EXPECT_SHOWN(test, &shown, "lg=-4");
	MPT_EXPECT_SHOWN(test, &shown, "ul=4");
	MPT_EXPECT_SHOWN(test, &shown, "hx=0x0000ff");
	MPT_EXPECT_SHOWN(test, &shown, "s=default");
	MPT_EXPECT_SHOWN(test, &shown, "renamed=10");
	MPT_EXPECT_SHOWN(test, &shown, "arr=1,2");
	MPT_EXPECT_SHOWN(test, &shown, "str=abc");
	KUNIT_EXPECT_EQ(test, delete_module("lx_params"), 0);
}

/* Every type set from the arguments, before init ran (its line says so). */
static void mpt_test_every_type(struct kunit *test)
{
	static struct mpt_shown shown;
	u64 log = printk_log_end();

	mpt_load(
		test, "lx_params",
		"b ib=n by=255 sh=-32768 us=65535 x=5 ui=4294967295 "
		"lg=-9223372036854775808 ul=18446744073709551615 hx=0xdeadbeef "
		"s=\"two words\" renamed=-7 arr=3,-4,0x10 str=1234567");
	KUNIT_EXPECT_TRUE(
		test,
		printk_log_contains(
			log,
			"lx_params: x=5 s=two words renamed=-7 arr_n=3 str=1234567 b=1 ib=1\n"));
	mpt_show(test, "lx_params", &shown);
	MPT_EXPECT_SHOWN(test, &shown, "b=Y");
	MPT_EXPECT_SHOWN(test, &shown, "ib=N");
	MPT_EXPECT_SHOWN(test, &shown, "by=255");
	MPT_EXPECT_SHOWN(test, &shown, "sh=-32768");
	MPT_EXPECT_SHOWN(test, &shown, "us=65535");
	MPT_EXPECT_SHOWN(test, &shown, "x=5");
	MPT_EXPECT_SHOWN(test, &shown, "ui=4294967295");
	MPT_EXPECT_SHOWN(test, &shown, "lg=-9223372036854775808");
	MPT_EXPECT_SHOWN(test, &shown, "ul=18446744073709551615");
	MPT_EXPECT_SHOWN(test, &shown, "hx=0xdeadbeef");
	MPT_EXPECT_SHOWN(test, &shown, "s=two words");
	MPT_EXPECT_SHOWN(test, &shown, "renamed=-7");
	MPT_EXPECT_SHOWN(test, &shown, "arr=3,-4,16");
	MPT_EXPECT_SHOWN(test, &shown, "str=1234567");
	KUNIT_EXPECT_EQ(test, delete_module("lx_params"), 0);

	/* '-' and '_' are one, a bool takes "off", the last word wins. */
	mpt_load(test, "lx_params", "x=1 x=2 b=off ib=0 s=a\\ b");
	mpt_show(test, "lx_params", &shown);
	MPT_EXPECT_SHOWN(test, &shown, "x=2");
	MPT_EXPECT_SHOWN(test, &shown, "b=N");
	MPT_EXPECT_SHOWN(test, &shown, "ib=N");
	MPT_EXPECT_SHOWN(test, &shown, "s=a b");
	KUNIT_EXPECT_EQ(test, delete_module("lx_params"), 0);
}

struct mpt_bad {
	const char *args;
	int err;
	const char *line; /* the one line the refusal prints */
};

static const struct mpt_bad mpt_bads[] = {
	{ "x=banana", -EINVAL,
	  "module lx_params: parameter x=banana: not a valid value, refused (-22)\n" },
	{ "x=5 nosuch=1", -ENOENT,
	  "module lx_params: parameter nosuch=1: no such parameter, refused (-2)\n" },
	{ "by=256", -ERANGE,
	  "module lx_params: parameter by=256: value out of range, refused (-34)\n" },
	{ "sh=32768", -ERANGE,
	  "module lx_params: parameter sh=32768: value out of range, refused (-34)\n" },
	{ "ui=-1", -EINVAL,
	  "module lx_params: parameter ui=-1: not a valid value, refused (-22)\n" },
	{ "x=2147483648", -ERANGE,
	  "module lx_params: parameter x=2147483648: value out of range, refused (-34)\n" },
	{ "b=maybe", -EINVAL,
	  "module lx_params: parameter b=maybe: not a valid value, refused (-22)\n" },
	{ "x", -EINVAL,
	  "module lx_params: parameter x needs a value (x=...), refused (-22)\n" },
	{ "=5", -EINVAL,
	  "module lx_params: argument '=5' has no parameter name, refused (-22)\n" },
	{ "s=\"open", -EINVAL,
	  "module lx_params: argument s=open: a '\"' is not closed, refused (-22)\n" },
	{ "str=12345678", -ENOSPC,
	  "module lx_params: parameter str=12345678: value too long, refused (-28)\n" },
	{ "arr=1,2,3,4,5", -EINVAL,
	  "module lx_params: parameter arr=1,2,3,4,5: not a valid value, refused (-22)\n" },
	{ "arr=1,x", -EINVAL,
	  "module lx_params: parameter arr=1,x: not a valid value, refused (-22)\n" },
	{ "fail=1", -EINVAL, "module lx_params: init failed with -22\n" },
};

/* The load fails with err after exactly the one line, and nothing stays. */
static void mpt_refuse_one(struct kunit *test, void *arg)
{
	const struct mpt_bad *bad = arg;
	u64 log = printk_log_end();
	struct module *mod = load_module("lx_params", bad->args);

	KUNIT_EXPECT_TRUE_MSG(test, IS_ERR(mod), "%s loaded", bad->args);
	if (!IS_ERR(mod)) {
		delete_module("lx_params");
		return;
	}
	KUNIT_EXPECT_EQ_MSG(test, PTR_ERR(mod), bad->err, "%s", bad->args);
	KUNIT_EXPECT_TRUE_MSG(test, printk_log_contains(log, bad->line),
			      "%s: no line %s", bad->args, bad->line);
	/* The refusal's line is the only error line of the load. */
	if (bad->err != -EINVAL || strncmp(bad->args, "fail", 4))
		KUNIT_EXPECT_FALSE_MSG(test,
				       printk_log_contains(log, "init failed"),
				       "%s ran init", bad->args);
	mutex_lock(&module_mutex);
	KUNIT_EXPECT_NULL(test, find_module("lx_params"));
	mutex_unlock(&module_mutex);
}

static void mpt_test_refused(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(mpt_bads); i++)
		kunit_expect_no_leak(test, mpt_refuse_one, (void *)&mpt_bads[i],
				     rcu_barrier);
	/* And the module still loads, with its defaults. */
	mpt_test_defaults(test);
}

static void mpt_load_unload(struct kunit *test, void *arg)
{
	mpt_load(test, "lx_params", arg);
	KUNIT_EXPECT_EQ(test, delete_module("lx_params"), 0);
}

/* The copy of the arguments (charp values point into it) goes with it. */
static void mpt_test_no_leak(struct kunit *test)
{
	kunit_expect_no_leak(test, mpt_load_unload,
			     "s=\"a long string value\" x=3 arr=1,2,3",
			     rcu_barrier);
}

/* The old static-key API across two modules, as Linux's selftest uses it. */
static void mpt_test_old_api(struct kunit *test)
{
	mpt_load(test, "lx_old_base", NULL);
	mpt_load(test, "lx_old_user", NULL);
	KUNIT_EXPECT_EQ(test, delete_module("lx_old_user"), 0);
	KUNIT_EXPECT_EQ(test, delete_module("lx_old_base"), 0);
}

static void mpt_test_maybe_ro(struct kunit *test)
{
	mpt_load(test, "lx_maybe_ro", NULL);
	KUNIT_EXPECT_EQ(test, delete_module("lx_maybe_ro"), 0);
}

/* Built in, module_param() is KBUILD_MODNAME.name on the command line. */
static int mpt_builtin = 3;
module_param(mpt_builtin, int, 0444);
static bool mpt_builtin_bool;
module_param_named(flag, mpt_builtin_bool, bool, 0444);

/*
 * __param is init data, gone after boot: what the command line set shows
 * in the variables. The module_param_cmdline run of tests/plan.json boots
 * with "module_params_test.mpt_builtin=9 module-params-test.flag"; other
 * runs check that nothing changed the defaults.
 */
static void mpt_test_builtin(struct kunit *test)
{
	bool given =
		strstr(saved_command_line, "module_params_test.mpt_builtin=9");

	KUNIT_EXPECT_EQ(test, mpt_builtin, given ? 9 : 3);
	KUNIT_EXPECT_EQ(test, mpt_builtin_bool, given);
}

static struct kunit_case mpt_cases[] = {
	KUNIT_CASE(mpt_test_defaults), KUNIT_CASE(mpt_test_every_type),
	KUNIT_CASE(mpt_test_refused),  KUNIT_CASE(mpt_test_no_leak),
	KUNIT_CASE(mpt_test_old_api),  KUNIT_CASE(mpt_test_maybe_ro),
	KUNIT_CASE(mpt_test_builtin),  {}
};

static struct kunit_suite mpt_suite = {
	.name = "module_params",
	.test_cases = mpt_cases,
};
kunit_test_suite(mpt_suite);
