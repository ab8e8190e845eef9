// SPDX-License-Identifier: GPL-2.0
/*
 * Links to the kernel's keys and defines one of its own, then fails its
 * init: the loader must undo it all (links, memory, the probe).
 */
#include <linux/errno.h>
#include <linux/module.h>
#include <fixtures/jump_label_modules.h>
#include <fixtures/static_key_sites.h>

static DEFINE_STATIC_KEY_FALSE(if_own);

STATIC_KEY_TEST_UNLIKELY(if_core_false, &jlm_core_false);
STATIC_KEY_TEST_LIKELY(if_core_true, &jlm_core_true);
STATIC_KEY_TEST_UNLIKELY(if_own_false, &if_own);

static struct jlm_probe if_probe = {
	.name = "jlm_init_fail",
	.nr = 3,
	.branch = { if_core_false, if_core_true, if_own_false },
	.key = { &jlm_core_false.key, &jlm_core_true.key, &if_own.key },
	.init_branch = -1,
};

/* jlm_register() checks every branch against its key while we come. */
static int __init if_init(void)
{
	int ret = jlm_register(&if_probe);

	if (ret)
		return ret;
	jlm_unregister(&if_probe);
	return -ENODEV;
}

module_init(if_init);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("jump label test: a module whose init fails");
