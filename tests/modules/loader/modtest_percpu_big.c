// SPDX-License-Identifier: GPL-2.0
/* Test module: a per-CPU variable larger than the whole reserve: refused. */
#include <linux/init.h>
#include <linux/module.h>
#include <linux/percpu.h>

static DEFINE_PER_CPU(char[CONFIG_MODULE_PERCPU_RESERVE + 64], mpcb_buf);

static int __init mpcb_init(void)
{
	this_cpu_write(mpcb_buf[0], 1);
	return 0;
}

static void mpcb_exit(void)
{
}

module_init(mpcb_init);
module_exit(mpcb_exit);
MODULE_INFO(name, KBUILD_MODNAME);
MODULE_LICENSE("GPL");
