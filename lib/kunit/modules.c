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
 *
 * A test module may name the modules it needs loaded first, as modprobe
 * reads them: MODULE_SOFTDEP("pre: a b"). The run loads each that is not
 * loaded before the test module and unloads those it loaded after it.
 */
#include <linux/kernel.h>
#include <linux/err.h>
#include <linux/export.h>
#include <linux/jump_label.h>
#include <linux/module.h>
#include <linux/mutex.h>
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

#define KUNIT_MAX_PREDEPS 4
#define KUNIT_PREDEP_LEN 56

/* The "pre:" modules of a test module's softdep= records. */
struct kunit_predeps {
	char name[KUNIT_MAX_PREDEPS][KUNIT_PREDEP_LEN];
	/* Loaded by this run, so unloaded after it. */
	bool loaded[KUNIT_MAX_PREDEPS];
	unsigned int n;
	bool bad;
};

static void kunit_predeps_add(struct kunit_predeps *d, const char *w,
			      size_t len)
{
	if (d->n == KUNIT_MAX_PREDEPS || len >= KUNIT_PREDEP_LEN) {
		d->bad = true;
		return;
	}
	memcpy(d->name[d->n], w, len);
	d->name[d->n++][len] = '\0';
}

/* One record: "pre: a b post: c" adds a and b. */
static void kunit_predeps_emit(const char *key, const char *value, void *data)
{
	const char *p = value, *w;
	bool pre = false;
	size_t len;

	if (strcmp(key, "softdep"))
		return;
	while (*p) {
		while (*p == ' ')
			p++;
		for (w = p; *p && *p != ' '; p++)
			;
		len = p - w;
		if (len && w[len - 1] == ':')
			pre = len == 4 && !strncmp(w, "pre:", 4);
		else if (len && pre)
			kunit_predeps_add(data, w, len);
	}
}

/* Loads name's "pre:" modules: 0, or the error (said). */
static int kunit_predeps_load(const char *name, struct kunit_predeps *d)
{
	unsigned int i;
	int ret;

	memset(d, 0, sizeof(*d));
	module_blob_modinfo(module_blob_find(name), kunit_predeps_emit, d);
	if (d->bad) {
		pr_err("kunit: test module %s: a softdep names more than %d modules or a name too long\n",
		       name, KUNIT_MAX_PREDEPS);
		return -EINVAL;
	}
	for (i = 0; i < d->n; i++) {
		mutex_lock(&module_mutex);
		d->loaded[i] = !find_module(d->name[i]);
		mutex_unlock(&module_mutex);
		ret = d->loaded[i] ? request_module(d->name[i]) : 0;
		if (ret) {
			pr_err("kunit: test module %s: softdep %s: load failed: %d\n",
			       name, d->name[i], ret);
			d->loaded[i] = false;
			return ret;
		}
	}
	return 0;
}

static void kunit_predeps_unload(struct kunit_predeps *d)
{
	unsigned int i = d->n;

	while (i--)
		if (d->loaded[i] && delete_module(d->name[i]))
			pr_err("kunit: softdep %s: unload failed\n",
			       d->name[i]);
}

/* Loads name collecting its suites: 0, or the loader's error (said). */
static int __kunit_module_load(const char *name)
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

static struct kunit_predeps kunit_predeps;

/* Its softdeps, then the module; on failure none of what it loaded stays. */
static int kunit_module_load(const char *name)
{
	int ret = kunit_predeps_load(name, &kunit_predeps);

	if (!ret)
		ret = __kunit_module_load(name);
	if (ret)
		kunit_predeps_unload(&kunit_predeps);
	return ret;
}

static int kunit_module_unload(const char *name)
{
	int ret = delete_module(name);

	if (ret)
		pr_err("kunit: test module %s: unload failed: %d\n", name, ret);
	else
		kunit_predeps_unload(&kunit_predeps);
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
