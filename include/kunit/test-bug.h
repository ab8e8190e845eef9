/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KUNIT_TEST_BUG_H
#define _KUNIT_TEST_BUG_H

#include <linux/jump_label.h>

/*
 * On while the KUnit suites run (Linux's key of the same name): code
 * outside the tests, a module for one, can ask cheaply whether it runs
 * under KUnit. It exists whatever CONFIG_KUNIT says (lib/kunit/hooks.c is
 * always built in); without KUnit it stays off.
 */
DECLARE_STATIC_KEY_FALSE(kunit_running);

#endif /* _KUNIT_TEST_BUG_H */
