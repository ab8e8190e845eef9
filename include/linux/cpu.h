/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_CPU_H
#define _LINUX_CPU_H

#include <linux/types.h>

/*
 * The CPU hotplug lock. There is no CPU hotplug yet, so holding it for
 * reading is a no-op: the _cpuslocked variants of the static key API assume
 * it is held and callers may take it around them, exactly as in Linux, and
 * both keep working unchanged when hotplug makes it a real lock.
 */
static inline void cpus_read_lock(void)
{
}

static inline void cpus_read_unlock(void)
{
}

static inline void lockdep_assert_cpus_held(void)
{
}

/*
 * CPU hotplug (kernel/cpu.c, Documentation/cpu-hotplug.rst): takes CPU
 * cpu offline or brings it back, from process context. 0, or a negative
 * errno with the reason printed: -ENODEV no such CPU, -EPERM the boot
 * CPU, -EALREADY already in that state, -EBUSY a task would not leave it,
 * -ETIMEDOUT it did not stop or start in time.
 */
int remove_cpu(unsigned int cpu);
int add_cpu(unsigned int cpu);

void cpus_write_lock(void);
void cpus_write_unlock(void);

/* Boot (smp_init()): maxcpus=/nosmp, and an AP that came up. */
bool cpu_boot_wanted(unsigned int cpu);
void cpuhp_online_at_boot(unsigned int cpu);

#endif /* _LINUX_CPU_H */
