// SPDX-License-Identifier: GPL-2.0
/*
 * Sites in init text: init reads the kernel's FALSE key through one;
 * once init has returned, its text is freed and no flip may touch it.
 */
#include <linux/module.h>
#include <fixtures/jump_label_modules.h>
#include <fixtures/static_key_sites.h>

STATIC_KEY_TEST_UNLIKELY(is_core_false, &jlm_core_false);

static struct jlm_probe is_probe = {
	.name = "jlm_init_sites",
	.nr = 1,
	.branch = { is_core_false },
	.key = { &jlm_core_false.key },
	.init_branch = -1,
};

static int __init is_init(void)
{
	is_probe.init_branch = static_branch_unlikely(&jlm_core_false) ? 1 : 0;
	if (static_branch_likely(&jlm_core_true))
		is_probe.init_branch |= 2;
	is_probe.init_text = (unsigned long)is_init;
	return jlm_register(&is_probe);
}

static void __exit is_exit(void)
{
	jlm_unregister(&is_probe);
}

module_init(is_init);
module_exit(is_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("jump label test: sites in init text");
