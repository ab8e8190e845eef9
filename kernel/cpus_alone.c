// SPDX-License-Identifier: GPL-2.0
/*
 * The keys of <linux/cpus_alone.h>: on while one CPU is all there is.
 *
 * They change only at three moments, each with the hotplug lock held (for
 * writing by the hotplug operation, for reading at boot), so the online
 * mask holds still while they are decided, and each time all of them move
 * in one batch through the queued API (three sync rounds for any number
 * of keys and sites):
 *
 *   1. boot, after jump_label_init(): on if only the boot CPU is online;
 *   2. a CPU coming up, before it starts (CPUHP_CPUS_ALONE_PREPARE's
 *      startup): off, since another CPU will be online;
 *   3. a CPU gone down, after it left the online mask and stopped (the
 *      same state's teardown): on if the one left is alone.
 *
 * A failed bring-up rolls back through 3, a failed takedown through 2, so
 * the keys end as the CPUs do. The callbacks queue with the hotplug lock
 * held for writing by their own task: the queue sees it held and takes
 * nothing more (static_key_enable_queued()).
 */
#define pr_fmt(fmt) "cpus_alone: " fmt

#include <linux/kernel.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/cpus_alone.h>
#include <linux/init.h>
#include <linux/jump_label.h>

extern struct static_key *const __start___cpus_alone_keys[];
extern struct static_key *const __stop___cpus_alone_keys[];

unsigned int cpus_alone_keys_count(void)
{
	return __stop___cpus_alone_keys - __start___cpus_alone_keys;
}

struct static_key *cpus_alone_key(unsigned int i)
{
	return i < cpus_alone_keys_count() ? __start___cpus_alone_keys[i] :
					     NULL;
}

/* Every key to alone, as one batch; hotplug lock held. */
static int cpus_alone_set(bool alone)
{
	struct static_key *const *k;
	int ret;

	lockdep_assert_cpus_held();
	for (k = __start___cpus_alone_keys; k < __stop___cpus_alone_keys; k++) {
		if (static_key_enabled(*k) == alone)
			continue;
		if (alone)
			static_key_enable_queued(*k);
		else
			static_key_disable_queued(*k);
	}
	ret = static_key_apply_queued();
	if (ret)
		pr_err("keys not set %s: %d\n", alone ? "on" : "off", ret);
	return ret;
}

int cpus_alone_prepare_cpu(unsigned int cpu)
{
	return cpus_alone_set(false);
}

int cpus_alone_dead_cpu(unsigned int cpu)
{
	return num_online_cpus() == 1 ? cpus_alone_set(true) : 0;
}

static int __init cpus_alone_init(void)
{
	int ret = 0;

	cpus_read_lock();
	if (num_online_cpus() == 1)
		ret = cpus_alone_set(true);
	cpus_read_unlock();
	pr_info("%u keys, %s\n", cpus_alone_keys_count(),
		num_online_cpus() == 1 ? "on: one CPU online" : "off");
	return ret;
}
device_initcall(cpus_alone_init);
