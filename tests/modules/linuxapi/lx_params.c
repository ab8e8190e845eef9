// SPDX-License-Identifier: GPL-2.0
/*
 * A parameter of every module_param() type, as a Linux module declares
 * them. Init says what it got and fails with -EINVAL when fail=1, so that
 * a test can tell the values were set before init ran.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>

static bool b;
module_param(b, bool, 0644);
MODULE_PARM_DESC(b, "a bool");
static bool ib;
module_param(ib, invbool, 0444);
MODULE_PARM_DESC(ib, "an inverted bool");
static unsigned char by = 7;
module_param(by, byte, 0444);
static short sh = -3;
module_param(sh, short, 0444);
static unsigned short us = 3;
module_param(us, ushort, 0444);
static int x = 1;
module_param(x, int, 0644);
MODULE_PARM_DESC(x, "an int, 1 by default");
static unsigned int ui = 2;
module_param(ui, uint, 0444);
static long lg = -4;
module_param(lg, long, 0444);
static unsigned long ul = 4;
module_param(ul, ulong, 0444);
static unsigned int hx = 0xff;
module_param(hx, hexint, 0444);
static char *s = "default";
module_param(s, charp, 0444);
MODULE_PARM_DESC(s, "a string (charp)");
static int internal_name = 10;
module_param_named(renamed, internal_name, int, 0444);
MODULE_PARM_DESC(renamed, "an int whose variable is internal_name");
static int arr[4] = { 1, 2 };
static unsigned int arr_n = 2;
module_param_array(arr, int, &arr_n, 0444);
MODULE_PARM_DESC(arr, "up to 4 ints, comma-separated");
static char str[8] = "abc";
module_param_string(str, str, sizeof(str), 0444);
MODULE_PARM_DESC(str, "at most 7 characters");
static bool fail;
module_param(fail, bool, 0444);
MODULE_PARM_DESC(fail, "init fails with -EINVAL");

static int __init lx_params_init(void)
{
	pr_info("lx_params: x=%d s=%s renamed=%d arr_n=%u str=%s b=%d ib=%d\n",
		x, s, internal_name, arr_n, str, b, ib);
	return fail ? -EINVAL : 0;
}

static void __exit lx_params_exit(void)
{
}

module_init(lx_params_init);
module_exit(lx_params_exit);
MODULE_DESCRIPTION("module_param() of every type");
MODULE_LICENSE("GPL");
