/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KUNIT_STATIC_KEY_SITES_H
#define _KUNIT_STATIC_KEY_SITES_H

/*
 * Site functions for static key tests: each holds exactly one site, so a
 * test can find its entry by the function's address and knows, apart from
 * the code under test, which macro and which length the site has. They
 * return 1 when the branch is taken.
 *
 * STATIC_KEY_TEST_UNLIKELY(name, key) defines name() with a short site and
 * name_long() whose fall-through block holds 200 bytes of NOPs, so that the
 * assembler must use a 5-byte jmp32; STATIC_KEY_TEST_LIKELY the same with
 * static_branch_likely().
 *
 * With CONFIG_JUMP_LABEL, static_key_test_entries() and
 * static_key_test_wrong_sites() look at a key's entries and sites.
 *
 * STATIC_KEY_TEST_EXPECT_WARN(test, log, fn, text) expects the printk log
 * since log (a printk_log_end() value) to hold a WARN placed at a call in
 * fn ("at fn+off/len": the caller, not a line of kernel/jump_label.c) and
 * text.
 */
#include <linux/bug.h>
#include <linux/compiler.h>
#include <linux/jump_label.h>
#include <linux/kernel.h>
#include <linux/printk.h>
#include <kunit/test.h>

#define STATIC_KEY_TEST_EXPECT_WARN(test, log, fn, text)                     \
	do {                                                                 \
		char __at[128], *__mod;                                      \
                                                                             \
		/* A module's symbol: "name+0x1/0x2 [mod]" in the WARN. */   \
		scnprintf(__at, sizeof(__at), " at %ps", (void *)(fn));      \
		__mod = strstr(__at, " [");                                  \
		if (!__mod)                                                  \
			__mod = __at + strlen(__at);                         \
		strscpy(__mod, "+", sizeof(__at) - (__mod - __at));          \
		KUNIT_EXPECT_TRUE_MSG(test, printk_log_contains(log, __at),  \
				      "no WARN \"...%s\" in the log", __at);  \
		KUNIT_EXPECT_FALSE_MSG(                                      \
			test, printk_log_contains(log, " at kernel/jump_"),  \
			"a WARN placed in kernel/jump_label.c");             \
		KUNIT_EXPECT_TRUE_MSG(test, printk_log_contains(log, text),  \
				      "no \"%s\" in the log", text);          \
	} while (0)

#define STATIC_KEY_TEST_PAD() asm volatile(".skip 200, 0x90")

#define STATIC_KEY_TEST_UNLIKELY(name, key)                           \
	static noinline __maybe_unused int name(void)                 \
	{                                                             \
		if (static_branch_unlikely(key))                      \
			return 1;                                     \
		return 0;                                             \
	}                                                             \
	static noinline __maybe_unused int name##_long(void)          \
	{                                                             \
		if (static_branch_unlikely(key))                      \
			return 1;                                     \
		STATIC_KEY_TEST_PAD();                                \
		return 0;                                             \
	}

#define STATIC_KEY_TEST_LIKELY(name, key)                             \
	static noinline __maybe_unused int name(void)                 \
	{                                                             \
		if (static_branch_likely(key))                        \
			return 1;                                     \
		return 0;                                             \
	}                                                             \
	static noinline __maybe_unused int name##_long(void)          \
	{                                                             \
		if (static_branch_likely(key)) {                      \
			STATIC_KEY_TEST_PAD();                        \
			return 1;                                     \
		}                                                     \
		return 0;                                             \
	}

#ifdef CONFIG_JUMP_LABEL
#include <linux/jump_label_arch.h>

/* The number of entries of @key in the sorted table. */
static inline unsigned int static_key_test_entries(struct static_key *key)
{
	struct jump_entry *entry;
	unsigned int n = 0;

	for_each_key_entry(key, entry)
		n++;
	return n;
}

/* Sites of @key that do not hold the instruction of its state @enabled. */
static inline unsigned int static_key_test_wrong_sites(struct static_key *key,
						       bool enabled)
{
	struct jump_entry *entry;
	unsigned int bad = 0;

	for_each_key_entry(key, entry)
		bad += arch_jump_label_check_site(entry, enabled ^
						  jump_entry_is_branch(entry)) != 0;
	return bad;
}
#endif /* CONFIG_JUMP_LABEL */

#endif /* _KUNIT_STATIC_KEY_SITES_H */
