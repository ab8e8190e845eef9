// SPDX-License-Identifier: GPL-2.0
/*
 * CPUs: the CPU hotplug lock (<linux/cpu.h> has the rules), then the CPU
 * masks.
 */
#include <linux/kernel.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/percpu-rwsem.h>
#include <linux/sched.h>
#include <linux/spinlock.h>

DEFINE_PERCPU_RWSEM(cpu_hotplug_lock);

/*
 * cpus_read_lock() calls by the writer itself, granted as no-ops and
 * still to be matched by cpus_read_unlock(). Only the writer touches it.
 */
static unsigned int cpus_write_reads;

enum cpus_lock_misuse {
	CPUS_NESTED_WRITER_WAITS, /* a nested read while a writer waits */
	CPUS_READ_IN_WRITE, /* a read by the writer */
	CPUS_UNBALANCED, /* a read unlock without a read hold */
	CPUS_WRITE_UNLOCK_NOT_HELD,
	CPUS_WRITE_UNLOCK_READS_OPEN, /* the writer's no-op reads not undone */
};

static struct {
	unsigned long caller;
	enum cpus_lock_misuse kind;
} cpus_misuse_seen[32];
static unsigned int nr_cpus_misuse_seen;
static DEFINE_SPINLOCK(cpus_misuse_lock);

/* True the first time (kind, caller) is seen; past the record's end, always. */
static bool cpus_misuse_first(enum cpus_lock_misuse kind, unsigned long caller)
{
	unsigned long flags;
	unsigned int i;
	bool first = true;

	spin_lock_irqsave(&cpus_misuse_lock, flags);
	for (i = 0; i < nr_cpus_misuse_seen && first; i++)
		first = cpus_misuse_seen[i].caller != caller ||
			cpus_misuse_seen[i].kind != kind;
	if (first && nr_cpus_misuse_seen < ARRAY_SIZE(cpus_misuse_seen)) {
		cpus_misuse_seen[nr_cpus_misuse_seen].caller = caller;
		cpus_misuse_seen[nr_cpus_misuse_seen++].kind = kind;
	}
	spin_unlock_irqrestore(&cpus_misuse_lock, flags);
	return first;
}

static bool cpus_write_held_by(struct task_struct *t)
{
	return READ_ONCE(cpu_hotplug_lock.writer) == t;
}

bool cpus_lock_held(void)
{
	struct task_struct *t = current;

	return t->cpus_read_depth || cpus_write_held_by(t);
}

/*
 * The writer waiting for the readers, or NULL. Only meaningful for a task
 * that holds a read hold: then a writer that set block cannot be past its
 * wait nor gone, and it owns writer_mutex until it clears block.
 */
static struct task_struct *cpus_waiting_writer(void)
{
	if (!READ_ONCE(cpu_hotplug_lock.block))
		return NULL;
	return percpu_rwsem_writer(&cpu_hotplug_lock);
}

/* A nested read hold: one more level for the task, never a wait. */
static void cpus_read_nested(struct task_struct *t, bool warn_writer,
			     unsigned long caller)
{
	struct task_struct *w;

	t->cpus_read_depth++;
	w = cpus_waiting_writer();
	if (!w || !warn_writer ||
	    !cpus_misuse_first(CPUS_NESTED_WRITER_WAITS, caller))
		return;
	__warn(__FILE__, __LINE__, caller,
	       "cpus_read_lock: nested call by %s/%d from %pS while %s/%d waits in cpus_write_lock(): granted (Linux deadlocks here)\n",
	       t->comm, t->pid, (void *)caller, w->comm, w->pid);
}

/* A read by the writer: a no-op, which the next read unlock matches. */
static void cpus_read_in_write(struct task_struct *t, const char *fn,
			       unsigned long caller)
{
	cpus_write_reads++;
	if (!cpus_misuse_first(CPUS_READ_IN_WRITE, caller))
		return;
	__warn(__FILE__, __LINE__, caller,
	       "%s: called by %s/%d from %pS, which holds cpus_write_lock(): use the _cpuslocked variant\n",
	       fn, t->comm, t->pid, (void *)caller);
}

/*
 * Slow path of the two read locks, for a task that holds the lock
 * already: it never waits. warn_writer: a nested call that would wait
 * for a waiting writer in Linux (not a trylock, which would fail).
 */
static noinline void cpus_read_lock_held(struct task_struct *t,
					 const char *fn, bool warn_writer,
					 unsigned long caller)
{
	if (cpus_write_held_by(t))
		cpus_read_in_write(t, fn, caller);
	else
		cpus_read_nested(t, warn_writer, caller);
}

void cpus_read_lock(void)
{
	struct task_struct *t = current;

	might_sleep();
	if (unlikely(t->cpus_read_depth || cpus_write_held_by(t))) {
		cpus_read_lock_held(t, "cpus_read_lock", true, _RET_IP_);
		return;
	}
	__percpu_down_read(&cpu_hotplug_lock);
	t->cpus_read_depth = 1;
}

int cpus_read_trylock(void)
{
	struct task_struct *t = current;

	if (unlikely(t->cpus_read_depth || cpus_write_held_by(t))) {
		cpus_read_lock_held(t, "cpus_read_trylock", false, _RET_IP_);
		return 1;
	}
	if (!percpu_down_read_trylock(&cpu_hotplug_lock))
		return 0;
	t->cpus_read_depth = 1;
	return 1;
}

static noinline void cpus_read_unbalanced(struct task_struct *t,
					  unsigned long caller)
{
	if (!cpus_misuse_first(CPUS_UNBALANCED, caller))
		return;
	__warn(__FILE__, __LINE__, caller,
	       "cpus_read_unlock: unbalanced call by %s/%d from %pS, which holds no cpus_read_lock(): ignored\n",
	       t->comm, t->pid, (void *)caller);
}

/* The last level of the task's read holds drops the lock's. */
void cpus_read_unlock(void)
{
	struct task_struct *t = current;

	if (unlikely(cpus_write_held_by(t))) {
		if (cpus_write_reads) {
			cpus_write_reads--;
			return;
		}
	} else if (likely(t->cpus_read_depth)) {
		if (--t->cpus_read_depth == 0)
			percpu_up_read(&cpu_hotplug_lock);
		return;
	}
	cpus_read_unbalanced(t, _RET_IP_);
}

void cpus_write_lock(void)
{
	might_sleep();
	__percpu_down_write(&cpu_hotplug_lock);
}

/* Checks the writer's own balance: false if it must not unlock. */
static noinline bool cpus_write_unlock_check(struct task_struct *t,
					     unsigned long caller)
{
	if (!cpus_write_held_by(t)) {
		if (cpus_misuse_first(CPUS_WRITE_UNLOCK_NOT_HELD, caller))
			__warn(__FILE__, __LINE__, caller,
			       "cpus_write_unlock: called by %s/%d from %pS, which does not hold cpus_write_lock(): ignored\n",
			       t->comm, t->pid, (void *)caller);
		return false;
	}
	if (cpus_misuse_first(CPUS_WRITE_UNLOCK_READS_OPEN, caller))
		__warn(__FILE__, __LINE__, caller,
		       "cpus_write_unlock: called by %s/%d from %pS with %u cpus_read_lock() of its own still open: forgotten\n",
		       t->comm, t->pid, (void *)caller, cpus_write_reads);
	cpus_write_reads = 0;
	return true;
}

void cpus_write_unlock(void)
{
	struct task_struct *t = current;

	if (unlikely(!cpus_write_held_by(t) || cpus_write_reads) &&
	    !cpus_write_unlock_check(t, _RET_IP_))
		return;
	percpu_up_write(&cpu_hotplug_lock);
}

/*
 * The CPU masks. CPU 0, the boot CPU, is possible and online from the first
 * instruction; the architecture adds the CPUs the firmware reports to the
 * possible mask during setup_arch(), and each of them sets its own online
 * bit once it takes IPIs.
 */
struct cpumask __cpu_possible_mask = { .bits = { 1UL } };
struct cpumask __cpu_online_mask = { .bits = { 1UL } };
