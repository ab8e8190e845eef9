// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "static_call_modules": a module's static call sites (found
 * in its relocations at load) call their targets directly before its init
 * runs, follow every update in the same batch as the kernel's, leave when
 * it unloads or its init fails, and a module whose static call relocation
 * is outside its text or not after a call is refused at load, with a line
 * naming it. Fixture modules: tests/modules/static_call/.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/err.h>
#include <linux/printk.h>
#include <linux/static_call.h>
#include <linux/string.h>
#include <linux/text-patching.h>
#include <fixtures/static_call_modules.h>
#include <kunit/test.h>
#ifdef CONFIG_STATIC_CALL
#include <linux/static_call_arch.h>
#endif

noinline int sct_exported_fn(int x)
{
	return x + 1000;
}
EXPORT_SYMBOL_GPL(sct_exported_fn);

static noinline int sct_other_fn(int x)
{
	return x + 2000;
}

DEFINE_STATIC_CALL(sct_exported, sct_exported_fn);
EXPORT_STATIC_CALL_GPL(sct_exported);
DEFINE_STATIC_CALL(sct_tramp_only, sct_exported_fn);
EXPORT_STATIC_CALL_TRAMP_GPL(sct_tramp_only);

static int (*scmt_fn)(int);
static unsigned int scmt_direct, scmt_wrong;

/* The module's sites of key, direct calls of the target or not. */
static void scmt_check_mod_sites(struct static_call_key *key, struct module *m)
{
#ifdef CONFIG_STATIC_CALL
	u8 want[STATIC_CALL_INSN_SIZE];
	unsigned int i;
	void *addr;

	for (i = 0; (addr = static_call_site_addr(key, i)); i++) {
		if (__module_address((unsigned long)addr) != m)
			continue;
		arch_static_call_insn(want, addr, key->func, false);
		if (memcmp(addr, want, STATIC_CALL_INSN_SIZE))
			scmt_wrong++;
		else
			scmt_direct++;
	}
#endif
}

void sct_mod_register(const char *mod, int (*fn)(int))
{
	struct module *m = __module_address((unsigned long)fn);

	scmt_fn = fn;
	scmt_direct = scmt_wrong = 0;
	scmt_check_mod_sites(&STATIC_CALL_KEY(sct_exported), m);
	scmt_check_mod_sites(&STATIC_CALL_KEY(sct_tramp_only), m);
}
EXPORT_SYMBOL_GPL(sct_mod_register);

void sct_mod_unregister(const char *mod)
{
	scmt_fn = NULL;
}
EXPORT_SYMBOL_GPL(sct_mod_unregister);

static bool scmt_loaded(const char *name)
{
	bool loaded;

	mutex_lock(&module_mutex);
	loaded = find_module(name);
	mutex_unlock(&module_mutex);
	return loaded;
}

static unsigned int scmt_sites(struct static_call_key *key)
{
	return static_call_nr_sites(key);
}

static void scmt_test_user(struct kunit *test)
{
	struct static_call_key *key = &STATIC_CALL_KEY(sct_exported);
	unsigned int before = scmt_sites(key);
	unsigned int tbefore = scmt_sites(&STATIC_CALL_KEY(sct_tramp_only));
	bool sc = IS_ENABLED(CONFIG_STATIC_CALL);
	struct text_poke_stats st;
	struct module *mod;

	mod = load_module("scm_user");
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(mod), "load: %ld", PTR_ERR(mod));
	/* At its init: its three sites (one in init text) were direct. */
	KUNIT_EXPECT_EQ(test, scmt_direct, sc ? 3 : 0);
	KUNIT_EXPECT_EQ(test, scmt_wrong, 0);
	/* Its init text is gone, and its site with it. */
	KUNIT_EXPECT_EQ(test, scmt_sites(key), before + sc);
	KUNIT_EXPECT_EQ(test, scmt_sites(&STATIC_CALL_KEY(sct_tramp_only)),
			tbefore + sc);
	KUNIT_ASSERT_NOT_NULL(test, scmt_fn);
	KUNIT_EXPECT_EQ(test, scmt_fn(1), 2 * 1001);

	st = text_poke_get_stats();
	KUNIT_EXPECT_EQ(test, static_call_update(sct_exported, sct_other_fn), 0);
	if (sc) {
		KUNIT_EXPECT_EQ(test, text_poke_get_stats().batches - st.batches, 1);
		KUNIT_EXPECT_EQ(test, text_poke_get_stats().sync_rounds - st.sync_rounds,
				3);
		KUNIT_EXPECT_EQ(test, text_poke_get_stats().sites - st.sites,
				scmt_sites(key));
	}
	KUNIT_EXPECT_EQ(test, scmt_fn(1), 2001 + 1001);
	scmt_direct = scmt_wrong = 0;
	scmt_check_mod_sites(key, mod);
	KUNIT_EXPECT_EQ(test, scmt_direct, sc ? 1 : 0);
	KUNIT_EXPECT_EQ(test, scmt_wrong, 0);

	KUNIT_EXPECT_EQ(test, delete_module("scm_user"), 0);
	KUNIT_EXPECT_EQ(test, scmt_sites(key), before);
	KUNIT_EXPECT_EQ(test, scmt_sites(&STATIC_CALL_KEY(sct_tramp_only)),
			tbefore);
	/* With the module gone, an update patches the kernel's sites only. */
	st = text_poke_get_stats();
	KUNIT_EXPECT_EQ(test, static_call_update(sct_exported, sct_exported_fn),
			0);
	if (sc)
		KUNIT_EXPECT_EQ(test, text_poke_get_stats().sites - st.sites, before);
}

/* A module whose init fails leaves no site on the call. */
static void scmt_test_init_fail(struct kunit *test)
{
	struct static_call_key *key = &STATIC_CALL_KEY(sct_exported);
	unsigned int before = scmt_sites(key);
	struct module *mod;

	scmt_direct = scmt_wrong = 0;
	mod = load_module("scm_init_fail");
	KUNIT_EXPECT_TRUE(test, IS_ERR(mod) && PTR_ERR(mod) == -ENODEV);
	KUNIT_EXPECT_EQ(test, scmt_direct, IS_ENABLED(CONFIG_STATIC_CALL));
	KUNIT_EXPECT_EQ(test, scmt_wrong, 0);
	KUNIT_EXPECT_EQ(test, scmt_sites(key), before);
	KUNIT_EXPECT_FALSE(test, scmt_loaded("scm_init_fail"));
}

static void scmt_expect_refused(struct kunit *test, const char *name,
				const char *why)
{
	struct static_call_key *key = &STATIC_CALL_KEY(sct_exported);
	unsigned int before = scmt_sites(key);
	u64 log = printk_log_end();
	struct module *mod;
	char msg[128];

	mod = load_module(name);
	KUNIT_EXPECT_TRUE(test, IS_ERR(mod) && PTR_ERR(mod) == -ENOEXEC);
	scnprintf(msg, sizeof(msg),
		  "module %s: static call of __SCT__sct_exported at %s", name,
		  why);
	KUNIT_EXPECT_TRUE_MSG(test, printk_log_contains(log, msg),
			      "no \"%s\" in the log", msg);
	KUNIT_EXPECT_EQ(test, scmt_sites(key), before);
	KUNIT_EXPECT_FALSE(test, scmt_loaded(name));
}

static void scmt_test_refused(struct kunit *test)
{
	if (!IS_ENABLED(CONFIG_STATIC_CALL))
		kunit_skip(test, "CONFIG_STATIC_CALL=n: no trampolines");
	scmt_expect_refused(test, "scm_bad_data", ".data+0x0 is outside its text: refused");
	scmt_expect_refused(test, "scm_bad_nocall", ".text+0x1 is not after a call or jmp: refused");
}

static struct kunit_case scmt_cases[] = {
	KUNIT_CASE(scmt_test_user),
	KUNIT_CASE(scmt_test_init_fail),
	KUNIT_CASE(scmt_test_refused),
	{}
};

static struct kunit_suite scmt_suite = {
	.name = "static_call_modules",
	.test_cases = scmt_cases,
};
kunit_test_suite(scmt_suite);
