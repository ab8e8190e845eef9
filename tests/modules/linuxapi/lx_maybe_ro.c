// SPDX-License-Identifier: GPL-2.0
/*
 * DEFINE_STATIC_KEY_MAYBE_RO() in a module: the type follows the option,
 * the key may change during init (its __ro_after_init is sealed after),
 * and its sites follow. Init fails with -EINVAL on a mismatch.
 */
#include <linux/module.h>
#include <linux/jump_label.h>

DEFINE_STATIC_KEY_MAYBE_RO(CONFIG_MODULES, lx_ro_on);
DEFINE_STATIC_KEY_MAYBE_RO(CONFIG_NO_SUCH_OPTION, lx_ro_off);

static noinline bool ro_on_likely(void)
{
	return static_branch_likely(&lx_ro_on);
}

static noinline bool ro_off_unlikely(void)
{
	return static_branch_unlikely(&lx_ro_off);
}

static int __init lx_maybe_ro_init(void)
{
	BUILD_BUG_ON(!__same_type(lx_ro_on, struct static_key_true));
	BUILD_BUG_ON(!__same_type(lx_ro_off, struct static_key_false));
	if (!ro_on_likely() || ro_off_unlikely())
		return -EINVAL;
	static_branch_enable(&lx_ro_off);
	static_branch_disable(&lx_ro_on);
	if (ro_on_likely() || !ro_off_unlikely())
		return -EINVAL;
	return 0;
}

/* An init without an exit could not be unloaded (-EBUSY, as in Linux). */
static void __exit lx_maybe_ro_exit(void)
{
}

module_init(lx_maybe_ro_init);
module_exit(lx_maybe_ro_exit);
MODULE_DESCRIPTION("DEFINE_STATIC_KEY_MAYBE_RO keys in a module");
MODULE_LICENSE("GPL");
