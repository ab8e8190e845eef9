/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_CPU_H
#define _LINUX_CPU_H

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

#endif /* _LINUX_CPU_H */
