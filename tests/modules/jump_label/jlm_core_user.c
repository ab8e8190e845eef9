// SPDX-License-Identifier: GPL-2.0
/*
 * Sites on the kernel's test keys: likely and unlikely branches on a TRUE
 * and a FALSE key, each with a short (jmp8) and a long (jmp32) site.
 */
#include <linux/module.h>
#include <fixtures/jump_label_modules.h>
#include <fixtures/static_key_sites.h>

STATIC_KEY_TEST_UNLIKELY(cu_false_unlikely, &jlm_core_false);
STATIC_KEY_TEST_LIKELY(cu_false_likely, &jlm_core_false);
STATIC_KEY_TEST_UNLIKELY(cu_true_unlikely, &jlm_core_true);
STATIC_KEY_TEST_LIKELY(cu_true_likely, &jlm_core_true);
/* A sealed kernel _RO key: the site is set once at load, not linked. */
STATIC_KEY_TEST_LIKELY(cu_ro_likely, &jlm_core_ro);

static struct jlm_probe cu_probe = {
	.name = "jlm_core_user",
	.nr = 9,
	.branch = { cu_false_unlikely, cu_false_unlikely_long, cu_false_likely,
		    cu_false_likely_long, cu_true_unlikely,
		    cu_true_unlikely_long, cu_true_likely, cu_true_likely_long,
		    cu_ro_likely },
	.key = { &jlm_core_false.key, &jlm_core_false.key, &jlm_core_false.key,
		 &jlm_core_false.key, &jlm_core_true.key, &jlm_core_true.key,
		 &jlm_core_true.key, &jlm_core_true.key, &jlm_core_ro.key },
	.init_branch = -1,
};

static int __init cu_init(void)
{
	return jlm_register(&cu_probe);
}

static void __exit cu_exit(void)
{
	jlm_unregister(&cu_probe);
}

module_init(cu_init);
module_exit(cu_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("jump label test: sites on the kernel's keys");
