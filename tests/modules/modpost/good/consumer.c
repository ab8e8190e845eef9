// SPDX-License-Identifier: GPL-2.0
/* Uses provider's export, and THIS_MODULE, which the loader resolves. */
#include <linux/module.h>
#include <linux/printk.h>

extern int provider_value;

static int __init consumer_init(void)
{
	pr_info("consumer %p: %d\n", THIS_MODULE, provider_value);
	return 0;
}
module_init(consumer_init);
MODULE_LICENSE("GPL");
