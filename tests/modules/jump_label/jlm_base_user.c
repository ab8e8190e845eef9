// SPDX-License-Identifier: GPL-2.0
/* Sites on jlm_base's keys (which pins jlm_base) and on a kernel key. */
#include <linux/module.h>
#include <fixtures/jump_label_modules.h>
#include <fixtures/static_key_sites.h>

DECLARE_STATIC_KEY_FALSE(jlm_base_false);
DECLARE_STATIC_KEY_TRUE(jlm_base_true);
DECLARE_STATIC_KEY_FALSE(jlm_base_ro);

STATIC_KEY_TEST_LIKELY(bu_false_likely, &jlm_base_false);
STATIC_KEY_TEST_UNLIKELY(bu_true_unlikely, &jlm_base_true);
STATIC_KEY_TEST_UNLIKELY(bu_core_false, &jlm_core_false);
/* jlm_base_ro is sealed when we load: the site is set once, not linked. */
STATIC_KEY_TEST_UNLIKELY(bu_ro, &jlm_base_ro);

static struct jlm_probe bu_probe = {
	.name = "jlm_base_user",
	.nr = 6,
	.branch = { bu_false_likely, bu_false_likely_long, bu_true_unlikely,
		    bu_true_unlikely_long, bu_core_false, bu_ro },
	.key = { &jlm_base_false.key, &jlm_base_false.key, &jlm_base_true.key,
		 &jlm_base_true.key, &jlm_core_false.key, &jlm_base_ro.key },
	.init_branch = -1,
};

static int __init bu_init(void)
{
	return jlm_register(&bu_probe);
}

static void __exit bu_exit(void)
{
	jlm_unregister(&bu_probe);
}

module_init(bu_init);
module_exit(bu_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("jump label test: sites on another module's keys");
