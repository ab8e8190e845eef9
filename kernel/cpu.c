// SPDX-License-Identifier: GPL-2.0
/*
 * The CPU masks, and CPU hotplug (Documentation/cpu-hotplug.rst).
 *
 * CPU 0, the boot CPU, is possible, online and active from the first
 * instruction; the architecture adds the CPUs the firmware reports to the
 * possible mask during setup_arch(), and each of them sets its own online
 * bit once it takes IPIs.
 *
 * The CPU hotplug lock comes first (<linux/cpu.h> has its rules).
 *
 * remove_cpu() and add_cpu() walk a CPU through the states of
 * <linux/cpuhotplug.h>, one operation at a time (cpu_add_remove_lock),
 * each under the hotplug lock held for writing. The workqueue's part
 * comes first going down and last coming up, outside that lock: parking
 * kworker/N waits for the item it runs, and an item may itself take the
 * hotplug lock for reading (a deferred static key's work does).
 */
#define pr_fmt(fmt) "cpu: " fmt

#include <linux/kernel.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/cpus_alone.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/lockorder.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/percpu-rwsem.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/workqueue.h>
#include <linux/warn_record.h>
#include <asm/smp.h>

DEFINE_PERCPU_RWSEM(cpu_hotplug_lock);
/*
 * The lock-order checker's view of it: reads and writes share the class,
 * and only the outermost read hold of a task counts (nested ones never
 * wait: see <linux/cpu.h>).
 */
static struct lockorder_map cpu_hotplug_dep_map =
	LOCKORDER_MAP_INIT("cpu_hotplug_lock");

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

DEFINE_WARN_RECORD(cpus_warned, 32);

/* True the first time (kind, caller) is seen; past the record's end, always. */
static bool cpus_misuse_first(enum cpus_lock_misuse kind, unsigned long caller)
{
	return warn_record_first(&cpus_warned, (void *)caller, kind);
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
EXPORT_SYMBOL_GPL(cpus_lock_held);

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
	__lockorder_acquire(&cpu_hotplug_dep_map, _RET_IP_, LOCKORDER_READ);
	__percpu_down_read(&cpu_hotplug_lock);
	t->cpus_read_depth = 1;
}
EXPORT_SYMBOL_GPL(cpus_read_lock);

int cpus_read_trylock(void)
{
	struct task_struct *t = current;

	if (unlikely(t->cpus_read_depth || cpus_write_held_by(t))) {
		cpus_read_lock_held(t, "cpus_read_trylock", false, _RET_IP_);
		return 1;
	}
	if (!percpu_down_read_trylock(&cpu_hotplug_lock))
		return 0;
	__lockorder_acquire(&cpu_hotplug_dep_map, _RET_IP_,
			    LOCKORDER_READ | LOCKORDER_TRY);
	t->cpus_read_depth = 1;
	return 1;
}
EXPORT_SYMBOL_GPL(cpus_read_trylock);

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
		if (--t->cpus_read_depth == 0) {
			percpu_up_read(&cpu_hotplug_lock);
			lockorder_release(&cpu_hotplug_dep_map, _RET_IP_);
		}
		return;
	}
	cpus_read_unbalanced(t, _RET_IP_);
}
EXPORT_SYMBOL_GPL(cpus_read_unlock);

void cpus_write_lock(void)
{
	might_sleep();
	__lockorder_acquire(&cpu_hotplug_dep_map, _RET_IP_, 0);
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
	lockorder_release(&cpu_hotplug_dep_map, _RET_IP_);
}

struct cpumask __cpu_possible_mask = { .bits = { 1UL } };
struct cpumask __cpu_online_mask = { .bits = { 1UL } };
EXPORT_SYMBOL(__cpu_possible_mask);
EXPORT_SYMBOL_GPL(__cpu_online_mask);
struct cpumask __cpu_active_mask = { .bits = { 1UL } };

struct cpuhp_step {
	const char *name;
	int (*startup)(unsigned int cpu);
	int (*teardown)(unsigned int cpu);
};

static int takedown_cpu(unsigned int cpu);

/*
 * The core's states; the dynamic ones are filled by cpuhp_setup_state().
 * A CPU in state s has run the startups of the steps up to s; going down
 * from s it runs s's teardown. CPUHP_ONLINE has no callbacks.
 */
static struct cpuhp_step cpuhp_steps[CPUHP_ONLINE + 1] = {
	[CPUHP_TIMERS_PREPARE] = { "timers", timers_prepare_cpu,
				   timers_dead_cpu },
	[CPUHP_CPUS_ALONE_PREPARE] = { "cpus_alone", cpus_alone_prepare_cpu,
				       cpus_alone_dead_cpu },
	[CPUHP_BRINGUP_CPU] = { "bringup", arch_cpu_up, takedown_cpu },
	[CPUHP_AP_ACTIVE] = { "sched", sched_cpu_activate,
			      sched_cpu_deactivate },
};

static enum cpuhp_state cpuhp_state_of[NR_CPUS] = { [0] = CPUHP_ONLINE };
/* Serializes hotplug operations and changes to cpuhp_steps. */
static DEFINE_MUTEX(cpu_add_remove_lock);
static DEFINE_PER_CPU(int, cpuhp_should_die);

enum cpuhp_state cpuhp_cpu_state(unsigned int cpu)
{
	return READ_ONCE(cpuhp_state_of[cpu]);
}

static int cpuhp_call(unsigned int cpu, enum cpuhp_state st, bool up)
{
	const struct cpuhp_step *step = &cpuhp_steps[st];
	int (*fn)(unsigned int) = up ? step->startup : step->teardown;
	int ret = fn ? fn(cpu) : 0;

	if (ret)
		pr_err("CPU%u: %s of state %d (%s) failed: %d\n", cpu,
		       up ? "startup" : "teardown", st,
		       step->name ? step->name : "?", ret);
	return ret;
}

/*
 * Moves cpu from its state to target, one state at a time; on a failure
 * walks back to where it started. Hotplug lock held for writing.
 */
static int cpuhp_walk(unsigned int cpu, enum cpuhp_state target)
{
	enum cpuhp_state from = cpuhp_state_of[cpu], st;
	bool up = target > from;
	int ret = 0;

	while (cpuhp_state_of[cpu] != target) {
		st = up ? cpuhp_state_of[cpu] + 1 : cpuhp_state_of[cpu];
		ret = cpuhp_call(cpu, st, up);
		if (ret)
			break;
		WRITE_ONCE(cpuhp_state_of[cpu], up ? st : st - 1);
	}
	/* Back the other way, ignoring errors: nothing better to do. */
	while (ret && cpuhp_state_of[cpu] != from) {
		st = up ? cpuhp_state_of[cpu] : cpuhp_state_of[cpu] + 1;
		cpuhp_call(cpu, st, !up);
		WRITE_ONCE(cpuhp_state_of[cpu], up ? st - 1 : st);
	}
	return ret;
}

/* CPUHP_BRINGUP_CPU's teardown: steps 4-6 of remove_cpu(). */
static int takedown_cpu(unsigned int cpu)
{
	set_cpu_online(cpu, false);
	/*
	 * Every smp_call_function*() that saw cpu online queued its request
	 * with interrupts off, a read-side section: after a grace period
	 * they all have, and cpu runs them before it stops.
	 */
	synchronize_rcu();
	per_cpu(cpuhp_should_die, cpu) = 1;
	return arch_cpu_kill(cpu);
}

void cpuhp_idle_check_dead(void)
{
	if (!this_cpu_read(cpuhp_should_die))
		return;
	this_cpu_write(cpuhp_should_die, 0);
	arch_cpu_die();
}

static int cpu_check(unsigned int cpu, bool up)
{
	if (cpu >= NR_CPUS || !cpu_possible(cpu)) {
		pr_warn("CPU%u does not exist\n", cpu);
		return -ENODEV;
	}
	if (!cpu) {
		pr_warn("CPU0 is the boot CPU: it stays online\n");
		return -EPERM;
	}
	if (cpu_online(cpu) == up) {
		pr_warn("CPU%u is already %s\n", cpu, up ? "online" : "offline");
		return -EALREADY;
	}
	return 0;
}

/*
 * Takes cpu offline: 1. kworker/cpu parks, its items move; then, under the
 * write lock, from CPUHP_ONLINE down: 2. the scheduler drains cpu; 3. the
 * dynamic states' teardowns; 4. cpu leaves the online mask; 5. a grace
 * period; 6. cpu stops in its idle loop and is parked (arch); 7. its
 * timers move here; the text patcher forgets it.
 */
int remove_cpu(unsigned int cpu)
{
	int ret;

	mutex_lock(&cpu_add_remove_lock);
	ret = cpu_check(cpu, false);
	if (ret)
		goto out;
	workqueue_offline_cpu(cpu);
	cpus_write_lock();
	ret = cpuhp_walk(cpu, CPUHP_OFFLINE);
	cpus_write_unlock();
	if (ret)
		workqueue_online_cpu(cpu);
	else
		pr_info("CPU%u offline\n", cpu);
out:
	mutex_unlock(&cpu_add_remove_lock);
	return ret;
}

/* The way back up; the arch restarts cpu, which runs sync_core() first. */
int add_cpu(unsigned int cpu)
{
	int ret;

	mutex_lock(&cpu_add_remove_lock);
	ret = cpu_check(cpu, true);
	if (ret)
		goto out;
	cpus_write_lock();
	ret = cpuhp_walk(cpu, CPUHP_ONLINE);
	cpus_write_unlock();
	if (!ret) {
		workqueue_online_cpu(cpu);
		pr_info("CPU%u online\n", cpu);
	}
out:
	mutex_unlock(&cpu_add_remove_lock);
	return ret;
}

/* A free dynamic state, or -ENOSPC. cpu_add_remove_lock held. */
static int cpuhp_find_dyn(void)
{
	int st;

	for (st = CPUHP_AP_ONLINE_DYN; st <= CPUHP_AP_ONLINE_DYN_END; st++)
		if (!cpuhp_steps[st].name)
			return st;
	return -ENOSPC;
}

/* Runs startup on each online CPU; on a failure, teardown on those done. */
static int cpuhp_call_online(int st, int (*startup)(unsigned int),
			     int (*teardown)(unsigned int))
{
	unsigned int cpu, undo;
	int ret;

	for_each_online_cpu(cpu) {
		ret = startup ? startup(cpu) : 0;
		if (!ret)
			continue;
		pr_err("CPU%u: startup of state %d failed: %d\n", cpu, st, ret);
		for_each_online_cpu(undo) {
			if (undo == cpu)
				break;
			if (teardown)
				teardown(undo);
		}
		return ret;
	}
	return 0;
}

static int __cpuhp_setup_state(enum cpuhp_state state, const char *name,
			       int (*startup)(unsigned int),
			       int (*teardown)(unsigned int), bool calls)
{
	int st = state, ret = 0;

	mutex_lock(&cpu_add_remove_lock);
	cpus_write_lock();
	if (state == CPUHP_AP_ONLINE_DYN)
		st = cpuhp_find_dyn();
	else if (state <= CPUHP_OFFLINE || state >= CPUHP_ONLINE ||
		 cpuhp_steps[state].name)
		st = -EINVAL;
	if (st < 0) {
		pr_warn("cpuhp_setup_state(%d, %s): %s\n", state, name,
			st == -ENOSPC ? "no free dynamic state" :
					"not a free state");
		ret = st;
		goto out;
	}
	if (calls)
		ret = cpuhp_call_online(st, startup, teardown);
	if (!ret) {
		cpuhp_steps[st] = (struct cpuhp_step){ name, startup, teardown };
		ret = state == CPUHP_AP_ONLINE_DYN ? st : 0;
	}
out:
	cpus_write_unlock();
	mutex_unlock(&cpu_add_remove_lock);
	return ret;
}

int cpuhp_setup_state(enum cpuhp_state state, const char *name,
		      int (*startup)(unsigned int cpu),
		      int (*teardown)(unsigned int cpu))
{
	return __cpuhp_setup_state(state, name, startup, teardown, true);
}

int cpuhp_setup_state_nocalls(enum cpuhp_state state, const char *name,
			      int (*startup)(unsigned int cpu),
			      int (*teardown)(unsigned int cpu))
{
	return __cpuhp_setup_state(state, name, startup, teardown, false);
}

void cpuhp_remove_state(enum cpuhp_state state)
{
	unsigned int cpu;

	mutex_lock(&cpu_add_remove_lock);
	cpus_write_lock();
	if (WARN_ON_ONCE(state < CPUHP_AP_ONLINE_DYN ||
			 state > CPUHP_AP_ONLINE_DYN_END ||
			 !cpuhp_steps[state].name))
		goto out;
	for_each_online_cpu(cpu)
		if (cpuhp_steps[state].teardown)
			cpuhp_steps[state].teardown(cpu);
	cpuhp_steps[state] = (struct cpuhp_step){};
out:
	cpus_write_unlock();
	mutex_unlock(&cpu_add_remove_lock);
}

/* How many CPUs smp_init() brings up: maxcpus=N, nosmp (maxcpus=0). */
static unsigned int setup_max_cpus = NR_CPUS;

static int __init maxcpus_setup(char *val)
{
	unsigned long n;

	if (kstrtoul(val, 0, &n))
		return -EINVAL;
	setup_max_cpus = n;
	return 0;
}
__setup("maxcpus", maxcpus_setup);

static int __init nosmp_setup(char *val)
{
	if (*val)
		return -EINVAL;
	setup_max_cpus = 0;
	return 0;
}
__setup("nosmp", nosmp_setup);

/* The APs smp_init() may start: maxcpus counts the boot CPU. */
bool __init cpu_boot_wanted(unsigned int cpu)
{
	return cpu < setup_max_cpus;
}

/* An AP that came up at boot: online, active, all its states done. */
void __init cpuhp_online_at_boot(unsigned int cpu)
{
	cpuhp_state_of[cpu] = CPUHP_ONLINE;
	sched_cpu_activate(cpu);
}
