// SPDX-License-Identifier: GPL-2.0
/*
 * Suite module_version: a module is refused when it was built for another
 * kernel (Documentation/modules.rst, "Versions"). Its test modules
 * (tests/modules/loader/modtest_vm_cross.c, modtest_ver_*.c) use nothing
 * of the other module suites, so that it runs in every configuration,
 * CONFIG_JUMP_LABEL=n included.
 */
#include <linux/kernel.h>
#include <linux/err.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/module_blob.h>
#include <linux/moduleloader.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <asm/module.h>
#include <generated/vermagic.h>
#include <kunit/test.h>

struct mem_counts {
	unsigned long frames, objects, bytes, area;
};

static void mem_counts(struct mem_counts *c)
{
	task_reap_dead();
	c->frames = nr_free_frames();
	kmalloc_usage(&c->objects, &c->bytes);
	c->area = module_area_pages_used();
}

/*
 * blob refused with -ENOEXEC and a log line holding msg, leaving frames,
 * kmalloc and the module area as they were: once before counting (the
 * free lists may grow), then until a run leaves every count as it found
 * it, 3 times at most (another CPU may allocate meanwhile; a leak shows
 * in every run).
 */
static void expect_refused(struct kunit *test, const struct module_blob *blob,
			   const char *msg)
{
	struct mem_counts before, after;
	struct module *mod;
	int tries;
	u64 log;

	KUNIT_ASSERT_NOT_NULL(test, blob);
	for (tries = 0; tries < 4; tries++) {
		mem_counts(&before);
		log = printk_log_end();
		mod = load_module_blob(blob);
		mem_counts(&after);
		if (!IS_ERR(mod)) {
			delete_module(mod->name);
			KUNIT_FAIL(test, "%s was loaded", blob->name);
			return;
		}
		KUNIT_EXPECT_EQ(test, PTR_ERR(mod), -ENOEXEC);
		KUNIT_EXPECT_TRUE_MSG(test, printk_log_contains(log, msg),
				      "no \"%s\" in the log", msg);
		if (tries && !memcmp(&before, &after, sizeof(before)))
			return;
	}
	KUNIT_EXPECT_EQ(test, after.frames, before.frames);
	KUNIT_EXPECT_EQ(test, after.objects, before.objects);
	KUNIT_EXPECT_EQ(test, after.bytes, before.bytes);
	KUNIT_EXPECT_EQ(test, after.area, before.area);
}

/*
 * Versions: modules built for another configuration of this tree
 * (modtest_vm_<option>, kernel/module/Makefile) are refused by their
 * version magic, in whichever direction this kernel's configuration
 * makes them (the default run and the jump_label_n run of tests/plan.json
 * see both), and one built against another form of an export's type by
 * that symbol's version; one line each, nothing allocated, no init run.
 */
static void copy_vermagic(const char *key, const char *value, void *data)
{
	if (!strcmp(key, "vermagic"))
		strscpy(data, value, 256);
}

static bool has_word(const char *s, const char *word)
{
	size_t n = strlen(word);

	for (; (s = strstr(s, word)); s += n)
		if (s[-1] == ' ' && (s[n] == ' ' || !s[n]))
			return true;
	return false;
}

/* s less its word " word", into buf. */
static const char *without_word(char *buf, size_t size, const char *s,
				const char *word)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), " %s", word);
	p = strstr(s, pat);
	while (p && p[strlen(pat)] && p[strlen(pat)] != ' ')
		p = strstr(p + 1, pat);
	if (!p) {
		strscpy(buf, s, size);
		return buf;
	}
	snprintf(buf, size, "%.*s%s", (int)(p - s), s, p + strlen(pat));
	return buf;
}

static void expect_magic_refused(struct kunit *test, const char *name,
				 const char *word, bool kernel_has)
{
	const struct module_blob *blob = module_blob_find(name);
	char *magic = kunit_kzalloc(test, 256, GFP_KERNEL);
	char *a = kunit_kzalloc(test, 256, GFP_KERNEL);
	char *b = kunit_kzalloc(test, 256, GFP_KERNEL);
	char *msg = kunit_kzalloc(test, 640, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, blob);
	KUNIT_ASSERT_TRUE(test, magic && a && b && msg);
	KUNIT_ASSERT_EQ(test, module_blob_modinfo(blob, copy_vermagic, magic),
			0);
	/* Built for the other value of the option: only its word differs. */
	KUNIT_EXPECT_EQ(test, has_word(VERMAGIC_STRING, word), kernel_has);
	KUNIT_EXPECT_EQ(test, has_word(magic, word), !kernel_has);
	KUNIT_EXPECT_STREQ(test, without_word(a, 256, magic, word),
			   without_word(b, 256, VERMAGIC_STRING, word));
	snprintf(
		msg, 640,
		"module %s: version magic '%s' should be '%s', refused (-ENOEXEC)\n",
		name, magic, VERMAGIC_STRING);
	expect_refused(test, blob, msg);
}

static void module_version_jump_label(struct kunit *test)
{
	expect_magic_refused(test, "modtest_vm_jump_label", "jump_label",
			     IS_ENABLED(CONFIG_JUMP_LABEL));
}

static void module_version_lockorder(struct kunit *test)
{
	expect_magic_refused(test, "modtest_vm_lockorder", "lockorder",
			     IS_ENABLED(CONFIG_LOCKORDER));
}

/* The CRC blob's __versions gives name, read as the loader reads it. */
static u64 blob_version(struct kunit *test, const char *blob_name,
			const char *name)
{
	const struct module_blob *blob = module_blob_find(blob_name);
	struct load_info info = {};
	u64 crc = 0;

	KUNIT_ASSERT_NOT_NULL(test, blob);
	info.name = blob->name;
	info.image = blob->data;
	info.len = blob->size;
	KUNIT_ASSERT_EQ(test, module_elf_check(&info), 0);
	KUNIT_EXPECT_TRUE(test, module_symbol_version(&info, name, &crc));
	module_elf_release(&info);
	return crc;
}

static void module_version_symbol_type(struct kunit *test)
{
	struct module *base = load_module("modtest_ver_base");
	char *msg = kunit_kzalloc(test, 256, GFP_KERNEL);
	u64 have = blob_version(test, "modtest_ver_user", "modtest_ver_sum");
	u32 want = 0;
	unsigned int i;

	KUNIT_ASSERT_FALSE(test, IS_ERR(base));
	KUNIT_ASSERT_NOT_NULL(test, msg);
	for (i = 0; i < base->num_crcs; i++)
		if (!strcmp(base->crcs[i].name, "modtest_ver_sum"))
			want = base->crcs[i].crc;
	KUNIT_EXPECT_EQ(test, base->num_crcs, 1);
	/* Its struct modtest_ver_pair has a member more: another CRC. */
	KUNIT_EXPECT_NE(test, have, (u64)want);
	snprintf(
		msg, 256,
		"module modtest_ver_user: symbol modtest_ver_sum has version 0x%08llx, modtest_ver_base's is 0x%08x: the types it names differ, refused (-ENOEXEC)\n",
		(unsigned long long)have, want);
	expect_refused(test, module_blob_find("modtest_ver_user"), msg);
	/* The refusal recorded no use: the exporter goes at once. */
	KUNIT_EXPECT_EQ(test, module_refcount(base), 0);
	KUNIT_EXPECT_EQ(test, delete_module("modtest_ver_base"), 0);
}

static struct kunit_case module_version_cases[] = {
	KUNIT_CASE(module_version_jump_label),
	KUNIT_CASE(module_version_lockorder),
	KUNIT_CASE(module_version_symbol_type),
	{}
};

static struct kunit_suite module_version_suite = {
	.name = "module_version",
	.test_cases = module_version_cases,
};
kunit_test_suite(module_version_suite);
