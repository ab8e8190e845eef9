// SPDX-License-Identifier: GPL-2.0
/*
 * The read-only view of the static keys (<linux/jump_label_introspect.h>):
 * the walk lists every key with a site once, in address order, with its
 * state and sites; a key's sites are its table entries. With
 * CONFIG_JUMP_LABEL=n nothing has a site and the walk lists nothing.
 * Linked after the benchmarks (kernel/Makefile): it moves none of their
 * code.
 */
#include <linux/err.h>
#include <linux/jump_label.h>
#include <linux/jump_label_arch.h>
#include <linux/jump_label_introspect.h>
#include <linux/module.h>
#include <linux/string.h>
#include <fixtures/jump_label_modules.h>
#include <fixtures/static_key_sites.h>
#include <kunit/test.h>

DEFINE_STATIC_KEY_FALSE(jli_false);
DEFINE_STATIC_KEY_TRUE(jli_true);
DEFINE_STATIC_KEY_FALSE(jli_two);
/* A key without a site: the walk must not list it. */
DEFINE_STATIC_KEY_FALSE(jli_nosite);

/* Four sites each, short and long, unlikely and likely; two for jli_two. */
STATIC_KEY_TEST_UNLIKELY(jli_false_unlikely, &jli_false)
STATIC_KEY_TEST_LIKELY(jli_false_likely, &jli_false)
STATIC_KEY_TEST_UNLIKELY(jli_true_unlikely, &jli_true)
STATIC_KEY_TEST_LIKELY(jli_true_likely, &jli_true)
STATIC_KEY_TEST_UNLIKELY(jli_two_fn, &jli_two)

/* The sites above, run: each branch as its key says (and kept, so linked). */
static void jli_branches(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, jli_false_unlikely() + jli_false_unlikely_long(),
			0);
	KUNIT_EXPECT_EQ(test, jli_false_likely() + jli_false_likely_long(), 0);
	KUNIT_EXPECT_EQ(test, jli_true_unlikely() + jli_true_unlikely_long(),
			2);
	KUNIT_EXPECT_EQ(test, jli_true_likely() + jli_true_likely_long(), 2);
	KUNIT_EXPECT_EQ(test, jli_two_fn() + jli_two_fn_long(), 0);
}

#ifdef CONFIG_JUMP_LABEL
/* What static_key_for_each_key() showed of the keys it walked. */
struct jli_walk {
	struct static_key *prev;
	unsigned int keys, unordered, nosite, stop_at;
	struct static_key_info true_info, false_info;
};

static int jli_walk_key(const struct static_key_info *info, void *data)
{
	struct jli_walk *w = data;

	w->unordered += w->prev && info->key <= w->prev;
	w->prev = info->key;
	w->keys++;
	w->nosite += info->key == &jli_nosite.key || !info->sites;
	if (info->key == &jli_true.key)
		w->true_info = *info;
	if (info->key == &jli_false.key)
		w->false_info = *info;
	return w->keys == w->stop_at ? 7 : 0;
}

/* Every key with a site, once, in address order, with its state. */
static void jli_introspect_keys(struct kunit *test)
{
	struct jli_walk w = {};

	static_branch_enable(&jli_false);
	KUNIT_EXPECT_EQ(test, static_key_for_each_key(jli_walk_key, &w), 0);
	static_branch_disable(&jli_false);
	KUNIT_EXPECT_GE(test, w.keys, 14);
	KUNIT_EXPECT_EQ(test, w.unordered, 0);
	KUNIT_EXPECT_EQ(test, w.nosite, 0);
	KUNIT_EXPECT_PTR_EQ(test, w.true_info.key, &jli_true.key);
	KUNIT_EXPECT_EQ(test, w.true_info.sites, 4);
	KUNIT_EXPECT_EQ(test, w.true_info.short_sites, 2);
	KUNIT_EXPECT_TRUE(test, w.true_info.default_true);
	KUNIT_EXPECT_TRUE(test, w.true_info.enabled);
	KUNIT_EXPECT_EQ(test, w.true_info.count, 1);
	KUNIT_EXPECT_PTR_EQ(test, w.false_info.key, &jli_false.key);
	KUNIT_EXPECT_EQ(test, w.false_info.sites, 4);
	KUNIT_EXPECT_FALSE(test, w.false_info.default_true);
	KUNIT_EXPECT_TRUE(test, w.false_info.enabled);
	KUNIT_EXPECT_EQ(test, w.false_info.count, 1);
	/* A non-zero return stops the walk and is its result. */
	w = (struct jli_walk){ .stop_at = 2 };
	KUNIT_EXPECT_EQ(test, static_key_for_each_key(jli_walk_key, &w), 7);
	KUNIT_EXPECT_EQ(test, w.keys, 2);
}

static void jli_introspect_info(struct kunit *test)
{
	struct static_key_info info;

	static_key_get_info(&jli_false.key, &info);
	KUNIT_EXPECT_EQ(test, info.count, 0);
	KUNIT_EXPECT_FALSE(test, info.enabled);
	KUNIT_EXPECT_EQ(test, info.sites, 4);
	static_branch_inc(&jli_false);
	static_branch_inc(&jli_false);
	static_key_get_info(&jli_false.key, &info);
	static_branch_dec(&jli_false);
	static_branch_dec(&jli_false);
	KUNIT_EXPECT_EQ(test, info.count, 2);
	KUNIT_EXPECT_TRUE(test, info.enabled);
	static_key_get_info(&jli_nosite.key, &info);
	KUNIT_EXPECT_EQ(test, info.sites, 0);
	KUNIT_EXPECT_EQ(test, info.short_sites, 0);
}

struct jli_sites {
	struct jump_entry *next; /* the kernel entry the next site must be */
	unsigned int nr, bad;
};

static int jli_check_site(const struct static_key_site *site, void *data)
{
	struct jli_sites *c = data;
	struct jump_entry *e = c->next++;

	c->nr++;
	c->bad += site->addr != jump_entry_code(e) ||
		  site->target != jump_entry_target(e) ||
		  site->size != arch_jump_entry_size(e) ||
		  site->likely != jump_entry_is_branch(e) || site->mod;
	return 0;
}

/* The sites of a key are its entries, as the table has them. */
static void jli_introspect_sites(struct kunit *test)
{
	struct jli_sites c = { .next = static_key_entries(&jli_two.key) };

	KUNIT_EXPECT_EQ(test,
			static_key_for_each_key_site(&jli_two.key,
						     jli_check_site, &c),
			0);
	KUNIT_EXPECT_EQ(test, c.nr, 2);
	KUNIT_EXPECT_EQ(test, c.bad, 0);
}

#if IS_ENABLED(CONFIG_JUMP_LABEL_MODULE_TEST)
/* What the walk listed of the kernel's jlm_core_false and of jlm_base. */
struct jli_mod_walk {
	unsigned int seen, sites, base_keys, base_sites;
};

static int jli_mod_walk_key(const struct static_key_info *info, void *data)
{
	struct module *mod = __module_address((unsigned long)info->key);
	struct jli_mod_walk *w = data;

	if (info->key == &jlm_core_false.key) {
		w->seen++;
		w->sites = info->sites;
	}
	if (mod && !strcmp(mod->name, "jlm_base")) {
		w->base_keys++;
		w->base_sites += info->sites;
	}
	return 0;
}

static struct jli_mod_walk jli_mod_walk(struct kunit *test)
{
	struct jli_mod_walk w = {};

	KUNIT_EXPECT_EQ(test, static_key_for_each_key(jli_mod_walk_key, &w), 0);
	return w;
}

/*
 * A module's keys are listed while it is loaded, and a kernel key with
 * sites in it once, those sites counted (jlm_base: tests/modules/).
 */
static void jli_introspect_modules(struct kunit *test)
{
	struct jli_mod_walk before, w;
	struct module *mod;

	KUNIT_ASSERT_TRUE_MSG(test, module_blob_find("jlm_base"),
			      "no jlm_base blob: the ISO carries no modules");
	before = jli_mod_walk(test);
	KUNIT_EXPECT_EQ(test, before.seen, 1);
	KUNIT_EXPECT_EQ(test, before.base_keys, 0);
	mod = load_module("jlm_base");
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(mod), "load_module: %ld",
			       PTR_ERR(mod));
	w = jli_mod_walk(test);
	KUNIT_EXPECT_EQ(test, delete_module("jlm_base"), 0);
	KUNIT_EXPECT_EQ(test, w.seen, 1);
	KUNIT_EXPECT_EQ(test, w.sites, before.sites + 1);
	/* jlm_base_false and _true, two sites each, and jlm_base_ro. */
	KUNIT_EXPECT_EQ(test, w.base_keys, 3);
	KUNIT_EXPECT_EQ(test, w.base_sites, 5);
	w = jli_mod_walk(test);
	KUNIT_EXPECT_EQ(test, w.sites, before.sites);
	KUNIT_EXPECT_EQ(test, w.base_keys, 0);
}
#endif

static struct kunit_case jli_cases[] = { KUNIT_CASE(jli_branches),
					 KUNIT_CASE(jli_introspect_keys),
					 KUNIT_CASE(jli_introspect_info),
					 KUNIT_CASE(jli_introspect_sites),
#if IS_ENABLED(CONFIG_JUMP_LABEL_MODULE_TEST)
					 KUNIT_CASE(jli_introspect_modules),
#endif
					 {} };
#else /* !CONFIG_JUMP_LABEL */
static int jli_count_key(const struct static_key_info *info, void *data)
{
	(*(unsigned int *)data)++;
	return 0;
}

/* No table: no key has a site, but a key's state is still there. */
static void jli_introspect_none(struct kunit *test)
{
	struct static_key_info info;
	unsigned int keys = 0;

	KUNIT_EXPECT_EQ(test, static_key_for_each_key(jli_count_key, &keys), 0);
	KUNIT_EXPECT_EQ(test, keys, 0);
	static_branch_enable(&jli_false);
	static_key_get_info(&jli_false.key, &info);
	static_branch_disable(&jli_false);
	KUNIT_EXPECT_EQ(test, info.count, 1);
	KUNIT_EXPECT_TRUE(test, info.enabled);
	KUNIT_EXPECT_EQ(test, info.sites, 0);
}

static struct kunit_case jli_cases[] = { KUNIT_CASE(jli_branches),
					 KUNIT_CASE(jli_introspect_none),
					 {} };
#endif /* CONFIG_JUMP_LABEL */

static struct kunit_suite jli_suite = {
	.name = "jump_label_introspect",
	.test_cases = jli_cases,
};

kunit_test_suites(&jli_suite);
