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
 */
#include <linux/compiler.h>
#include <linux/jump_label.h>

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

#endif /* _KUNIT_STATIC_KEY_SITES_H */
