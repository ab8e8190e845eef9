// SPDX-License-Identifier: GPL-2.0
/*
 * Test suites in loadable modules (Documentation/kunit.rst), as Linux's
 * CONFIG_FOO_KUNIT_TEST=m: a test module is a module the ISO carries
 * whose name ends in "_test"; kunit_test_suites() in it makes its init
 * hand its suites to __kunit_test_suites_init() and its exit take them
 * back.
 *
 * Loaded by insmod, its suites run at once, as a KTAP document of their
 * own; rmmod frees them. A run of the harness (the boot's, the console's
 * test command) loads each test module twice, one at a time, while it
 * collects: first to count the suites the filters select, for the plan
 * line, then after the built-in suites to run them, each reported with a
 * "# module: name" line; the module is unloaded after each pass, even
 * when a case crashed (the case's thread died, not the module).
 */
#include <linux/kernel.h>
#include <linux/err.h>
#include <linux/export.h>
#include <linux/jump_label.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <kunit/test.h>
#include <kunit/test-bug.h>
#include "kunit_internal.h"

#define TEST_MODULE_SUFFIX "_test"

/* The suites of the module being loaded while a run collects them. */
static struct {
	bool on;
	struct kunit_suite *const *suites;
	unsigned int n;
} collect;

static bool kunit_is_test_module(const char *name)
{
	size_t len = strlen(name), slen = strlen(TEST_MODULE_SUFFIX);

	return len > slen && !strcmp(name + len - slen, TEST_MODULE_SUFFIX);
}

/* insmod of a test module: its suites now, in a document of their own. */
static void kunit_run_module_now(struct kunit_suite *const *suites,
				 unsigned int n)
{
	unsigned int i;
	int nr = 0;

	for (i = 0; i < n; i++)
		nr += kunit_suite_selected(suites[i]);
	printk("KTAP version 1\n1..%d\n", nr);
	nr = 0;
	static_branch_enable(&kunit_running);
	for (i = 0; i < n; i++)
		if (kunit_suite_selected(suites[i]))
			kunit_run_suite(suites[i], ++nr);
	static_branch_disable(&kunit_running);
}

int __kunit_test_suites_init(struct kunit_suite *const *suites, unsigned int n,
			     const char *modname)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		suites[i]->module = modname;
	if (!collect.on) {
		kunit_run_module_now(suites, n);
		return 0;
	}
	collect.suites = suites;
	collect.n = n;
	return 0;
}
EXPORT_SYMBOL_GPL(__kunit_test_suites_init);

void __kunit_test_suites_exit(struct kunit_suite *const *suites, unsigned int n)
{
	if (collect.suites == suites) {
		collect.suites = NULL;
		collect.n = 0;
	}
}
EXPORT_SYMBOL_GPL(__kunit_test_suites_exit);

/* Loads name collecting its suites: 0, or the loader's error (said). */
static int kunit_module_load(const char *name)
{
	struct module *mod;

	collect.on = true;
	collect.suites = NULL;
	collect.n = 0;
	mod = load_module(name);
	collect.on = false;
	if (IS_ERR(mod)) {
		pr_err("kunit: test module %s: load failed: %ld%s; its suites do not run\n",
		       name, PTR_ERR(mod),
		       PTR_ERR(mod) == -EEXIST ? " (loaded already: rmmod it)" :
						 " (the log says why)");
		return PTR_ERR(mod);
	}
	if (!collect.suites)
		pr_warn("kunit: test module %s registered no suite\n", name);
	return 0;
}

static int kunit_module_unload(const char *name)
{
	int ret = delete_module(name);

	if (ret)
		pr_err("kunit: test module %s: unload failed: %d\n", name, ret);
	return ret;
}

int kunit_modules_count(struct kunit_modules *m)
{
	unsigned int i, j, n = module_blob_count();
	const char *name;
	int nr = 0;

	m->failed = 0;
	m->bad = n ? kcalloc(n, sizeof(*m->bad), GFP_KERNEL) : NULL;
	if (n && !m->bad) {
		pr_err("kunit: out of memory: no test module runs\n");
		m->failed = 1;
		return 0;
	}
	for (i = 0; i < n; i++) {
		name = module_blob_get(i)->name;
		if (!kunit_is_test_module(name))
			continue;
		if (kunit_module_load(name)) {
			m->bad[i] = true;
			m->failed++;
			continue;
		}
		for (j = 0; j < collect.n; j++)
			nr += kunit_suite_selected(collect.suites[j]);
		kunit_module_unload(name);
	}
	return nr;
}

int kunit_modules_run(struct kunit_modules *m, int *nr)
{
	unsigned int i, j, ran, n = m->bad ? module_blob_count() : 0;
	int failed = m->failed;
	const char *name;

	for (i = 0; i < n; i++) {
		name = module_blob_get(i)->name;
		if (!kunit_is_test_module(name) || m->bad[i])
			continue;
		if (kunit_module_load(name)) {
			failed++;
			continue;
		}
		for (ran = 0, j = 0; j < collect.n; j++) {
			if (!kunit_suite_selected(collect.suites[j]))
				continue;
			failed += kunit_run_suite(collect.suites[j], ++*nr);
			ran++;
		}
		if (!kunit_module_unload(name) && ran)
			pr_info("kunit: test module %s: %u suites run, unloaded\n",
				name, ran);
	}
	kfree(m->bad);
	m->bad = NULL;
	return failed;
}
