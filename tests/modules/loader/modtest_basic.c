// SPDX-License-Identifier: GPL-2.0
/*
 * Test module: an object in every region, two exports, init and exit that
 * report to the "module" suite. init also writes its ro_after_init
 * variable, which must still be writable then.
 */
#include <linux/init.h>
#include <linux/module.h>
#include <fixtures/modtest.h>

static int counter; /* bss */
static int data_value = 42; /* data */
static const char greeting[] = "modtest_basic rodata"; /* rodata */
static int ro_value __ro_after_init = 7;
static int init_seed __initdata = 5;

int modtest_basic_add(int a, int b)
{
	return a + b + counter;
}
EXPORT_SYMBOL(modtest_basic_add);

int modtest_basic_gpl_twice(int x)
{
	return 2 * x;
}
EXPORT_SYMBOL_GPL(modtest_basic_gpl_twice);

static int __init modtest_basic_init(void)
{
	struct modtest_report r = {
		.this_module = THIS_MODULE,
		.add = modtest_basic_add,
		.init_text = modtest_basic_init,
		.rodata = greeting,
		.data = &data_value,
		.bss = &counter,
		.ro_after_init = &ro_value,
		.init_data = &init_seed,
	};

	ro_value = 10 * init_seed + modtest_gpl_only(1);
	modtest_report(&r);
	return 0;
}

static void modtest_basic_exit(void)
{
	modtest_exit("modtest_basic");
}

module_init(modtest_basic_init);
module_exit(modtest_basic_exit);
MODULE_INFO(name, KBUILD_MODNAME);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("module loader test: every region, exports");
