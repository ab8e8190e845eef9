// SPDX-License-Identifier: GPL-2.0
/* Module multi, second object. */
#include <linux/module.h>
#include <linux/string.h>

int multi_helper(void);

int multi_helper(void)
{
	return strcmp(KBUILD_MODNAME, "multi") ? -EINVAL : 0;
}
