// SPDX-License-Identifier: GPL-2.0
/*
 * What the kernel offers about KUnit whether or not CONFIG_KUNIT is set,
 * so that a module using it links against any kernel.
 */
#include <linux/export.h>
#include <linux/jump_label.h>
#include <kunit/test-bug.h>

DEFINE_STATIC_KEY_FALSE(kunit_running);
EXPORT_SYMBOL(kunit_running);
