/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_CPUS_ALONE_H
#define _LINUX_CPUS_ALONE_H

/*
 * Keys of SMP-only paths that know when one CPU is all there is
 * (kernel/cpus_alone.c, Documentation/cpu-hotplug.rst).
 *
 * A key defined with DEFINE_STATIC_KEY_CPUS_ALONE() is a FALSE key that is
 * enabled while exactly one CPU is online and no other one is on its way,
 * so that a path that exists for the others (an IPI fan-out, a TLB
 * shootdown) can be skipped with one static branch instead of a look at
 * the online mask:
 *
 *   if (static_branch_unlikely(&my_alone))
 *           return do_it_here();
 *
 * Off is always safe (the SMP path copes with one CPU); on means alone.
 * All of them flip together, in one batch of the queued API: on once the
 * last other CPU is dead (the teardown of CPUHP_CPUS_ALONE_PREPARE, after
 * it left the online mask), off before another CPU starts (its startup,
 * before CPUHP_BRINGUP_CPU); at boot, after jump_label_init(), on if only
 * the boot CPU came up. Keys of the kernel image only (not of modules).
 */
#include <linux/compiler.h>
#include <linux/jump_label.h>

#define DEFINE_STATIC_KEY_CPUS_ALONE(name)                             \
	DEFINE_STATIC_KEY_FALSE(name);                                 \
	static struct static_key *const __cpus_alone_key_##name __used \
		__section("__cpus_alone_keys") = &(name).key

/* The CPUHP_CPUS_ALONE_PREPARE callbacks (kernel/cpu.c's table). */
int cpus_alone_prepare_cpu(unsigned int cpu);
int cpus_alone_dead_cpu(unsigned int cpu);

/* The keys, for tests and the console: count, and the i-th (or NULL). */
unsigned int cpus_alone_keys_count(void);
struct static_key *cpus_alone_key(unsigned int i);

#endif /* _LINUX_CPUS_ALONE_H */
