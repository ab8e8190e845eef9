// SPDX-License-Identifier: GPL-2.0
/*
 * Defines and exports three keys (jlm_base_user uses them), with sites of
 * its own on them and one on the kernel's FALSE key. jlm_base_ro is
 * read-only after init: init enables it, later changes are refused.
 */
#include <linux/module.h>
#include <fixtures/jump_label_modules.h>
#include <fixtures/static_key_sites.h>

DEFINE_STATIC_KEY_FALSE(jlm_base_false);
EXPORT_SYMBOL_GPL(jlm_base_false);
DEFINE_STATIC_KEY_TRUE(jlm_base_true);
EXPORT_SYMBOL_GPL(jlm_base_true);
DEFINE_STATIC_KEY_FALSE_RO(jlm_base_ro);
EXPORT_SYMBOL_GPL(jlm_base_ro);

STATIC_KEY_TEST_UNLIKELY(base_false_unlikely, &jlm_base_false);
STATIC_KEY_TEST_LIKELY(base_true_likely, &jlm_base_true);
STATIC_KEY_TEST_UNLIKELY(base_core_false, &jlm_core_false);
STATIC_KEY_TEST_UNLIKELY(base_ro, &jlm_base_ro);

static struct jlm_probe base_probe = {
	.name = "jlm_base",
	.nr = 6,
	.branch = { base_false_unlikely, base_false_unlikely_long,
		    base_true_likely, base_true_likely_long, base_core_false,
		    base_ro },
	.key = { &jlm_base_false.key, &jlm_base_false.key, &jlm_base_true.key,
		 &jlm_base_true.key, &jlm_core_false.key, &jlm_base_ro.key },
	.init_branch = -1,
};

static int __init base_init(void)
{
	static_branch_enable(&jlm_base_ro);
	return jlm_register(&base_probe);
}

static void __exit base_exit(void)
{
	jlm_unregister(&base_probe);
}

module_init(base_init);
module_exit(base_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("jump label test: keys defined and exported by a module");
