/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_CPU_H
#define _LINUX_CPU_H

#include <linux/types.h>
#include <linux/bug.h>
#include <linux/percpu-rwsem.h>
#include <linux/sched.h>

/*
 * The CPU hotplug lock (kernel/cpu.c, Documentation/sched.rst): a per-CPU
 * rwsem. Readers (cpus_read_lock()) keep the set of online CPUs from
 * changing under them and cost one count on their own CPU; the writer
 * (cpus_write_lock(), CPU hotplug) waits for them and keeps new ones out.
 * Both may sleep.
 *
 * Each task counts its read holds (task->cpus_read_depth), and the lock
 * records its writer, so the lock knows whether the current task holds
 * it. Where Linux deadlocks or stays silent, this one WARNs once per call
 * site, naming the task and the caller, and goes on:
 *
 * - a nested cpus_read_lock() while a writer waits is granted at once
 *   (nested read holds never wait; they add to the task's count only);
 * - cpus_read_lock()/cpus_read_trylock() by the writer itself are no-ops
 *   (use the _cpuslocked variant), and so are the matching unlocks;
 * - cpus_read_unlock() without a hold, cpus_write_unlock() by a task that
 *   does not hold it, change nothing;
 * - cpus_write_unlock() with such no-op reads still open forgets them.
 *
 * cpus_write_lock() by a task holding the read lock deadlocks, as in Linux.
 */
extern struct percpu_rw_semaphore cpu_hotplug_lock;

void cpus_read_lock(void);
void cpus_read_unlock(void);
/* 1 if taken (or the task held it already), 0 if a writer wants it. */
int cpus_read_trylock(void);
void cpus_write_lock(void);
void cpus_write_unlock(void);

/* True if the current task holds the lock, for reading or for writing. */
bool cpus_lock_held(void);

/*
 * WARNs once per call site if the current task does not hold the lock,
 * naming the task, the function and its caller.
 */
#define lockdep_assert_cpus_held()                                             \
	WARN_ONCE(!cpus_lock_held(),                                           \
		  "lockdep: cpu_hotplug_lock not held by %s/%d in %pS, called from %pS\n", \
		  current->comm, current->pid, (void *)_THIS_IP_,              \
		  (void *)_RET_IP_)

/*
 * CPU hotplug (kernel/cpu.c, Documentation/cpu-hotplug.rst): takes CPU
 * cpu offline or brings it back, from process context. 0, or a negative
 * errno with the reason printed: -ENODEV no such CPU, -EPERM the boot
 * CPU, -EALREADY already in that state, -EBUSY a task would not leave it,
 * -ETIMEDOUT it did not stop or start in time.
 */
int remove_cpu(unsigned int cpu);
int add_cpu(unsigned int cpu);

/* Boot (smp_init()): maxcpus=/nosmp, and an AP that came up. */
bool cpu_boot_wanted(unsigned int cpu);
void cpuhp_online_at_boot(unsigned int cpu);

#endif /* _LINUX_CPU_H */
