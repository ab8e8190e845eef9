// SPDX-License-Identifier: GPL-2.0
/*
 * The broken-module corpus: every bad_* blob on the ISO is a good module
 * (jlm_core_user) with one thing wrong, made by scripts/mkbadmodules.py.
 * Each must be refused with its own one-line message and an errno, and
 * leave nothing behind: no module, no frame, no kmalloc byte, no patched
 * site, no linked key. The table below and the generator must agree: a
 * blob without an entry, or an entry without a blob, fails.
 */
#include <linux/kernel.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/jump_label_table.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/text-patching.h>
#include <fixtures/jump_label_modules.h>
#include <fixtures/mem_snapshot.h>
#include <kunit/test.h>

struct corpus_case {
	const char *name;
	/* After "module <name>: "; a '*' separates parts that must follow. */
	const char *msg;
	int err;
};

static const struct corpus_case corpus[] = {
	{ "bad_truncated", "section header table (offset 0x", -ENOEXEC },
	{ "bad_magic", "bad ELF magic 7f 45 4c 47", -ENOEXEC },
	{ "bad_class32", "not ELF64 (class 1)", -ENOEXEC },
	{ "bad_endian", "not little-endian (data 2)", -ENOEXEC },
	{ "bad_identver", "ELF version 0/1, expected 1", -ENOEXEC },
	{ "bad_exec", "not a relocatable object (e_type 2)", -ENOEXEC },
	{ "bad_machine", "not x86-64 (e_machine 3)", -ENOEXEC },
	{ "bad_version", "ELF version 1/0, expected 1", -ENOEXEC },
	{ "bad_shentsize", "e_shentsize 32, expected 64", -ENOEXEC },
	{ "bad_shoff", "section header table (offset 0x", -ENOEXEC },
	{ "bad_shstrndx", "e_shstrndx * is not a section", -ENOEXEC },
	{ "bad_secpast", "section 1 (.text) ends past the file", -ENOEXEC },
	{ "bad_secsize",
	  "section 1 (.text) ends past the file (offset 0x40, size 0xfffffffffffffff8",
	  -ENOEXEC },
	{ "bad_align",
	  "section 1 (.text): alignment 0x18 is not a power of two", -ENOEXEC },
	{ "bad_strtab",
	  "section * (.strtab): string table does not end with a NUL",
	  -ENOEXEC },
	{ "bad_nosymtab", "0 symbol tables, expected exactly one", -ENOEXEC },
	{ "bad_symname", "symbol *: name offset 0x*is past the string table",
	  -ENOEXEC },
	{ "bad_symshndx",
	  "symbol init_module: section index 0x*is not a section", -ENOEXEC },
	{ "bad_symcommon", "symbol init_module is common (SHN_COMMON)",
	  -ENOEXEC },
	{ "bad_relsec",
	  "section * (.rela.init.text): SHT_REL relocations are not supported",
	  -ENOEXEC },
	{ "bad_rtarget",
	  "section * (.rela.init.text): sh_info * is not a section", -ENOEXEC },
	{ "bad_rlink",
	  "section * (.rela.init.text): sh_link * is not the symbol table",
	  -ENOEXEC },
	{ "bad_rsymbol",
	  "relocation 1 in .rela.init.text: symbol index * is past the symbol table",
	  -ENOEXEC },
	{ "bad_roffset",
	  "relocation 1 in .rela.init.text: offset 0xa (+4) is past the end of .init.text",
	  -ENOEXEC },
	{ "bad_rtype",
	  "relocation 1 in .rela.init.text: unsupported relocation R_X86_64_GOTPCREL (9)",
	  -ENOEXEC },
	{ "bad_roverflow",
	  "relocation 1 in .rela.init.text: R_X86_64_32 value 0x", -ENOEXEC },
	{ "bad_undefined", "unknown symbol jlm_registeX", -ENOENT },
	{ "bad_gplonly",
	  "GPL-only symbol jlm_register (of the kernel) used by a module without a GPL-compatible license",
	  -EPERM },
	{ "bad_jsite", "jump entry 0: site 0x*is outside the module's text",
	  -EINVAL },
	{ "bad_jkey",
	  "jump entry 0: key 0x*of site cu_*is not in kernel or module data",
	  -EINVAL },
	{ "bad_jbytes", "jump entry 0: site cu_*[bad_jbytes] holds 0f 0b ",
	  -EINVAL },
	{ "bad_jkeyoff",
	  "jump entry 1: key 0x*(jlm_core_true+0x8/0x10) of site cu_*is not the start of a static key of the kernel",
	  -EINVAL },
	{ "bad_jkeydata",
	  "jump entry 0: key 0x*(cu_probe+0x0/0xe0 [bad_jkeydata]) of site cu_*is not the start of a static key of module bad_jkeydata",
	  -EINVAL },
	{ "bad_jdup",
	  "jump entries 0 and 1: site cu_*(key jlm_core_*) overlaps site cu_*(key jlm_core_",
	  -EINVAL },
};

/* What a refusal must leave as it found. */
struct corpus_state {
	struct kunit_mem mem;
	unsigned long sites, patches;
	unsigned int modules;
};

static void corpus_snapshot(struct corpus_state *s)
{
	struct module *mod;

	kunit_mem_snapshot(&s->mem);
	s->sites = text_poke_get_stats().sites;
	s->patches = text_poke_get_stats().passes;
	s->modules = 0;
	mutex_lock(&module_mutex);
	list_for_each_entry(mod, &modules, list)
		s->modules++;
	mutex_unlock(&module_mutex);
}

static const struct corpus_case *corpus_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(corpus); i++)
		if (!strcmp(corpus[i].name, name))
			return &corpus[i];
	return NULL;
}

/* Every bad_* blob is in the table and every entry has its blob. */
static void corpus_test_complete(struct kunit *test)
{
	unsigned int i, bad = 0;
	const struct module_blob *b;

	for (i = 0; i < module_blob_count(); i++) {
		b = module_blob_get(i);
		if (strncmp(b->name, "bad_", 4))
			continue;
		bad++;
		KUNIT_EXPECT_TRUE_MSG(test, corpus_find(b->name),
				      "blob %s has no entry in the table",
				      b->name);
	}
	for (i = 0; i < ARRAY_SIZE(corpus); i++)
		KUNIT_EXPECT_TRUE_MSG(test, module_blob_find(corpus[i].name),
				      "no blob %s", corpus[i].name);
	KUNIT_EXPECT_EQ(test, bad, ARRAY_SIZE(corpus));
	KUNIT_EXPECT_GE(test, bad, 20);
}

/*
 * The refusal's line is the only one the load prints: each part of msg
 * must be in the log since pos, the first right after the module's name.
 */
static bool corpus_logged(u64 pos, const struct corpus_case *c)
{
	const char *part = c->msg, *star;
	char buf[160];

	do {
		star = strchr(part, '*');
		if (part == c->msg)
			snprintf(buf, sizeof(buf), "module %s: %.*s", c->name,
				 star ? (int)(star - part) : (int)strlen(part),
				 part);
		else
			snprintf(buf, sizeof(buf), "%.*s",
				 star ? (int)(star - part) : (int)strlen(part),
				 part);
		if (!printk_log_contains(pos, buf))
			return false;
		part = star + 1;
	} while (star);
	return true;
}

/* One refused load of c, its errno and message checked: false if loaded. */
static bool corpus_refuse(struct kunit *test, const struct corpus_case *c,
			  struct corpus_state *before, struct corpus_state *after)
{
	u64 log = printk_log_end();
	struct module *mod;

	corpus_snapshot(before);
	mod = load_module(c->name);
	corpus_snapshot(after);
	KUNIT_EXPECT_TRUE_MSG(test, IS_ERR(mod), "%s was loaded", c->name);
	if (!IS_ERR(mod)) {
		delete_module(c->name);
		return false;
	}
	KUNIT_EXPECT_EQ_MSG(test, PTR_ERR(mod), (long)c->err, "%s", c->name);
	KUNIT_EXPECT_TRUE_MSG(test, corpus_logged(log, c),
			      "no \"module %s: %s\" in the log", c->name,
			      c->msg);
	return true;
}

static bool corpus_same(const struct corpus_state *a,
			const struct corpus_state *b)
{
	return kunit_mem_equal(&a->mem, &b->mem) && a->sites == b->sites &&
	       a->patches == b->patches && a->modules == b->modules;
}

/*
 * Up to three tries until one leaves everything as it found it: other
 * CPUs allocate and free meanwhile (a previous suite's threads being
 * reaped, RCU callbacks), while a real leak shows on every try.
 */
static void corpus_test_one(struct kunit *test, const struct corpus_case *c)
{
	struct corpus_state before, after;
	unsigned int tries = 0;

	do {
		if (!corpus_refuse(test, c, &before, &after))
			return;
	} while (!corpus_same(&before, &after) && ++tries < 3);
	KUNIT_EXPECT_EQ_MSG(test, after.mem.frames, before.mem.frames, "%s",
			    c->name);
	KUNIT_EXPECT_EQ_MSG(test, after.mem.objects, before.mem.objects, "%s",
			    c->name);
	KUNIT_EXPECT_EQ_MSG(test, after.mem.bytes, before.mem.bytes, "%s",
			    c->name);
	KUNIT_EXPECT_EQ_MSG(test, after.sites, before.sites, "%s", c->name);
	KUNIT_EXPECT_EQ_MSG(test, after.patches, before.patches, "%s", c->name);
	KUNIT_EXPECT_EQ_MSG(test, after.modules, before.modules, "%s", c->name);
	KUNIT_EXPECT_FALSE_MSG(test, static_key_linked(&jlm_core_false.key),
			       "%s", c->name);
	KUNIT_EXPECT_FALSE_MSG(test, static_key_linked(&jlm_core_true.key),
			       "%s", c->name);
}

/* Each refused with its message, nothing left behind, twice over. */
static void corpus_test_refused(struct kunit *test)
{
	unsigned int i, round;

	for (round = 0; round < 2; round++)
		for (i = 0; i < ARRAY_SIZE(corpus); i++)
			if (module_blob_find(corpus[i].name))
				corpus_test_one(test, &corpus[i]);
}

/* And the good module they come from loads, with the keys flipped. */
static void corpus_test_good_one(struct kunit *test)
{
	struct module *mod;

	static_branch_enable(&jlm_core_false);
	mod = load_module("jlm_core_user");
	KUNIT_EXPECT_FALSE(test, IS_ERR(mod));
	static_branch_disable(&jlm_core_false);
	if (!IS_ERR(mod))
		KUNIT_EXPECT_EQ(test, delete_module("jlm_core_user"), 0);
}

static struct kunit_case corpus_cases[] = { KUNIT_CASE(corpus_test_complete),
					    KUNIT_CASE(corpus_test_refused),
					    KUNIT_CASE(corpus_test_good_one),
					    {} };

static struct kunit_suite corpus_suite = {
	.name = "module_corpus",
	.test_cases = corpus_cases,
};
kunit_test_suite(corpus_suite);
