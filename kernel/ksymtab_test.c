// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the kernel's export tables (<linux/export.h>): what the module
 * loader will link modules against. Each entry must name a symbol of the
 * image by its start, names must be unique across both tables, and a
 * GPL-only export must sit in __ksymtab_gpl alone.
 */
#include <linux/cpu.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/jiffies.h>
#include <linux/jump_label.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/string.h>
#include <linux/workqueue.h>
#include <kunit/test.h>
#include <kunit/test-bug.h>

struct ksymtab {
	const char *name;
	const struct kernel_symbol *start, *stop;
};

static const struct ksymtab ksymtabs[] = {
	{ "__ksymtab", __start___ksymtab, __stop___ksymtab },
	{ "__ksymtab_gpl", __start___ksymtab_gpl, __stop___ksymtab_gpl },
};

static const struct kernel_symbol *ksymtab_find(const struct ksymtab *t,
						const char *name)
{
	const struct kernel_symbol *s;

	for (s = t->start; s < t->stop; s++)
		if (!strcmp(s->name, name))
			return s;
	return NULL;
}

static bool in_rodata(const void *p)
{
	return (const char *)p >= __start_rodata &&
	       (const char *)p < __end_rodata;
}

/* Both tables hold entries, in read-only data, with sane names. */
static void ksymtab_test_tables(struct kunit *test)
{
	const struct ksymtab *t;
	const struct kernel_symbol *s;

	for (t = ksymtabs; t < ksymtabs + ARRAY_SIZE(ksymtabs); t++) {
		KUNIT_EXPECT_LT_MSG(test, t->start, t->stop, "%s is empty",
				    t->name);
		KUNIT_EXPECT_TRUE(test, in_rodata(t->start));
		KUNIT_EXPECT_TRUE(test, t->start == t->stop ||
						in_rodata(t->stop - 1));
		for (s = t->start; s < t->stop; s++) {
			KUNIT_ASSERT_TRUE(test, in_rodata(s->name));
			KUNIT_EXPECT_GT(test, strlen(s->name), 0);
			KUNIT_EXPECT_NE(test, s->value, 0);
		}
	}
}

/* Every value is the start of a symbol of the image (kallsyms says so). */
static void ksymtab_test_values_are_symbols(struct kunit *test)
{
	const struct ksymtab *t;
	const struct kernel_symbol *s;
	unsigned long off;

	for (t = ksymtabs; t < ksymtabs + ARRAY_SIZE(ksymtabs); t++) {
		for (s = t->start; s < t->stop; s++) {
			const char *sym = kallsyms_lookup(s->value, NULL, &off);

			KUNIT_EXPECT_TRUE_MSG(test, sym && !off,
					      "%s: %s at %#lx is %s+%#lx",
					      t->name, s->name, s->value,
					      sym ? sym : "?", sym ? off : 0);
		}
	}
}

/* A name is exported once, in one table: the loader's lookup relies on it. */
static void ksymtab_test_names_unique(struct kunit *test)
{
	const struct kernel_symbol *all[2 * 512];
	const struct ksymtab *t;
	const struct kernel_symbol *s;
	unsigned int n = 0, i, j;

	for (t = ksymtabs; t < ksymtabs + ARRAY_SIZE(ksymtabs); t++)
		for (s = t->start; s < t->stop; s++) {
			KUNIT_ASSERT_LT(test, n, ARRAY_SIZE(all));
			all[n++] = s;
		}
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			KUNIT_EXPECT_TRUE_MSG(
				test, strcmp(all[i]->name, all[j]->name),
				"%s is exported twice", all[i]->name);
}

/* name is exported in table (0: plain, 1: GPL) alone, with value addr. */
static void expect_export(struct kunit *test, const char *name,
			  unsigned int table, const void *addr)
{
	const struct kernel_symbol *s = ksymtab_find(&ksymtabs[table], name);

	KUNIT_EXPECT_NOT_NULL_MSG(test, s, "%s is not in %s", name,
				  ksymtabs[table].name);
	if (s)
		KUNIT_EXPECT_EQ_MSG(test, s->value, (unsigned long)addr,
				    "%s: wrong address", name);
	KUNIT_EXPECT_NULL_MSG(test, ksymtab_find(&ksymtabs[!table], name),
			      "%s is also in %s", name, ksymtabs[!table].name);
}

static void ksymtab_test_known_exports(struct kunit *test)
{
	/* Plain: functions, a variable, a static key, a per-CPU variable. */
	expect_export(test, "printk", 0, printk);
	expect_export(test, "memcpy", 0, memcpy);
	expect_export(test, "mutex_lock", 0, mutex_lock);
	expect_export(test, "jiffies", 0, (const void *)&jiffies);
	expect_export(test, "system_wq", 0, &system_wq);
	expect_export(test, "kunit_running", 0, &kunit_running);
	expect_export(test, "__preempt_count", 0, &__preempt_count);
	/* GPL-only, as in Linux. */
	expect_export(test, "static_key_slow_inc", 1, static_key_slow_inc);
	expect_export(test, "static_key_enable_cpuslocked", 1,
		      static_key_enable_cpuslocked);
	expect_export(test, "cpus_read_lock", 1, cpus_read_lock);
	expect_export(test, "synchronize_rcu", 1, synchronize_rcu);
	expect_export(test, "kunit_fail_int", 1, kunit_fail_int);
	/* Not exported at all: internals stay internal. */
	KUNIT_EXPECT_NULL(test, ksymtab_find(&ksymtabs[0], "jump_label_init"));
	KUNIT_EXPECT_NULL(test, ksymtab_find(&ksymtabs[1], "jump_label_init"));
}

static struct kunit_case ksymtab_test_cases[] = {
	KUNIT_CASE(ksymtab_test_tables),
	KUNIT_CASE(ksymtab_test_values_are_symbols),
	KUNIT_CASE(ksymtab_test_names_unique),
	KUNIT_CASE(ksymtab_test_known_exports),
	{}
};

static struct kunit_suite ksymtab_test_suite = {
	.name = "ksymtab",
	.test_cases = ksymtab_test_cases,
};
kunit_test_suite(ksymtab_test_suite);
