// SPDX-License-Identifier: GPL-2.0
/*
 * A module built out of tree, with parameters: "insmod lx_oot x=5 s=hi"
 * prints them; "insmod lx_oot x=banana" is refused before init.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <lx_oot.h>

static int x = 1;
module_param(x, int, 0644);
MODULE_PARM_DESC(x, "an int");
static char *s = "none";
module_param(s, charp, 0444);
MODULE_PARM_DESC(s, "a string");

static int __init lx_oot_init(void)
{
	pr_info("lx_oot: %s: x=%d s=%s\n", LX_OOT_GREETING, x, s);
	return 0;
}

static void __exit lx_oot_exit(void)
{
	pr_info("lx_oot: exit\n");
}

module_init(lx_oot_init);
module_exit(lx_oot_exit);
MODULE_DESCRIPTION("an out-of-tree module with parameters");
MODULE_AUTHOR("the static-keys kernel");
MODULE_LICENSE("GPL");
