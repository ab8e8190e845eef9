// SPDX-License-Identifier: GPL-2.0
/*
 * Keys of the old static-key API (old-api: allowed, a test of it), as a
 * Linux module defines and exports them; lx_old_user has the sites. Init
 * enables lx_old_flipped, so the user sees it enabled from its first site.
 */
#include <linux/module.h>
#include <linux/jump_label.h>

struct static_key lx_old_on = STATIC_KEY_INIT_TRUE;
EXPORT_SYMBOL_GPL(lx_old_on);
struct static_key lx_old_off = STATIC_KEY_INIT_FALSE;
EXPORT_SYMBOL_GPL(lx_old_off);
struct static_key lx_old_flipped = STATIC_KEY_INIT_FALSE;
EXPORT_SYMBOL_GPL(lx_old_flipped);

static int __init lx_old_base_init(void)
{
	static_key_enable(&lx_old_flipped);
	if (!static_key_enabled(&lx_old_flipped) ||
	    static_key_count(&lx_old_flipped) != 1)
		return -EINVAL;
	return 0;
}

static void __exit lx_old_base_exit(void)
{
}

module_init(lx_old_base_init);
module_exit(lx_old_base_exit);
MODULE_DESCRIPTION("old-API static keys for lx_old_user");
MODULE_LICENSE("GPL");
