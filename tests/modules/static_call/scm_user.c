// SPDX-License-Identifier: GPL-2.0
/*
 * Calls the kernel's sct_exported (key and trampoline exported) and
 * sct_tramp_only (trampoline only: static_call_mod()), from its init
 * text and its text; registers a caller with the suite from init.
 */
#include <linux/module.h>
#include <fixtures/static_call_modules.h>

static noinline int scm_user_call(int x)
{
	return static_call(sct_exported)(x) + static_call_mod(sct_tramp_only)(x);
}

static noinline int __init scm_user_init_call(int x)
{
	return static_call(sct_exported)(x) * 2;
}

static int __init scm_user_init(void)
{
	if (scm_user_init_call(1) != 2 * sct_exported_fn(1))
		return -EINVAL;
	sct_mod_register("scm_user", scm_user_call);
	return 0;
}

static void __exit scm_user_exit(void)
{
	sct_mod_unregister("scm_user");
}

module_init(scm_user_init);
module_exit(scm_user_exit);
MODULE_LICENSE("GPL");
