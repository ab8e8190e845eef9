// SPDX-License-Identifier: GPL-2.0
/*
 * The smallest module worth loading: a line from its init and one from its
 * exit. It calls the kernel (printk) and branches on a static key of the
 * kernel's (kunit_running), so loading it links both against the kernel's
 * exports and patches a site of its own for a key it does not own.
 */
#include <linux/module.h>
#include <linux/printk.h>
#include <kunit/test-bug.h>

static int __init sample_hello_init(void)
{
	pr_info("sample_hello: hello from a module (%s)\n",
		static_branch_unlikely(&kunit_running) ?
			"under KUnit" :
			"no KUnit test running");
	return 0;
}

static void sample_hello_exit(void)
{
	pr_info("sample_hello: goodbye\n");
}

module_init(sample_hello_init);
module_exit(sample_hello_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Says hello from init and goodbye from exit");
