// SPDX-License-Identifier: GPL-2.0
/*
 * Test module built for another configuration of this tree (kernel/module/
 * Makefile: modtest_vm_jump_label with CONFIG_JUMP_LABEL flipped,
 * modtest_vm_lockorder with CONFIG_LOCKORDER flipped): a static branch and
 * a mutex, whose code and layout those options change. The loader must
 * refuse each by its version magic (module_version suite): loaded, a
 * JUMP_LABEL=y build in an =n kernel would take its branch with the key
 * off, and a lock of the other layout would be misread.
 */
#include <linux/init.h>
#include <linux/jump_label.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/printk.h>

static DEFINE_STATIC_KEY_FALSE(modtest_vm_key);
static DEFINE_MUTEX(modtest_vm_lock);

static int __init modtest_vm_init(void)
{
	bool rare;

	mutex_lock(&modtest_vm_lock);
	rare = static_branch_unlikely(&modtest_vm_key);
	mutex_unlock(&modtest_vm_lock);
	pr_info("%s: the key's branch is %s\n", KBUILD_MODNAME,
		rare ? "taken" : "not taken");
	return rare ? -EINVAL : 0;
}

static void modtest_vm_exit(void)
{
}

module_init(modtest_vm_init);
module_exit(modtest_vm_exit);
MODULE_LICENSE("GPL");
MODULE_INFO(name, KBUILD_MODNAME);
