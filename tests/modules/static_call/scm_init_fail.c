// SPDX-License-Identifier: GPL-2.0
/* Calls sct_exported, then fails its init: no site may stay behind. */
#include <linux/module.h>
#include <fixtures/static_call_modules.h>

static noinline int scm_init_fail_call(int x)
{
	return static_call(sct_exported)(x) + 1;
}

static int __init scm_init_fail_init(void)
{
	sct_mod_register("scm_init_fail", scm_init_fail_call);
	sct_mod_unregister("scm_init_fail");
	return -ENODEV;
}

module_init(scm_init_fail_init);
MODULE_LICENSE("GPL");
