/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_CPUHOTPLUG_H
#define _LINUX_CPUHOTPLUG_H

#include <linux/types.h>

/*
 * CPU hotplug states (kernel/cpu.c, Documentation/cpu-hotplug.rst).
 *
 * A CPU coming online goes up through the states in order, calling each
 * state's startup(cpu); going offline it comes down, calling teardown(cpu)
 * in the reverse order. Every callback runs in process context on the CPU
 * driving the operation ("for" the CPU), with the hotplug lock held for
 * writing (cpus_write_lock()): it may sleep, and flips static keys with
 * the _cpuslocked variants. The states below CPUHP_BRINGUP_CPU run while
 * the CPU is dead (prepare on the way up, dead on the way down); those
 * above, while it runs and is online.
 *
 * A startup that fails rolls the CPU back down (the teardowns of the
 * states it passed run); a teardown that fails rolls it back up.
 */
enum cpuhp_state {
	CPUHP_OFFLINE,
	CPUHP_TIMERS_PREPARE, /* an empty wheel / the dead CPU's timers move */
	CPUHP_CPUS_ALONE_PREPARE, /* <linux/cpus_alone.h>: off / on if alone */
	CPUHP_BRINGUP_CPU, /* the CPU starts, or stops and is parked */
	CPUHP_AP_ONLINE_DYN, /* cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, ...) */
	CPUHP_AP_ONLINE_DYN_END = CPUHP_AP_ONLINE_DYN + 7,
	CPUHP_AP_ACTIVE, /* the scheduler places tasks on it, or drains it */
	CPUHP_ONLINE,
};

/*
 * Installs startup/teardown for state and, unless _nocalls, runs startup
 * on every online CPU now (teardown on those done if one fails). For
 * CPUHP_AP_ONLINE_DYN a free dynamic state is taken: the return value is
 * that state (positive), to pass to cpuhp_remove_state(). Otherwise 0. A
 * negative errno: no free state, the state is taken, a startup failed.
 * Either callback may be NULL. Takes the hotplug lock: not from a callback.
 */
int cpuhp_setup_state(enum cpuhp_state state, const char *name,
		      int (*startup)(unsigned int cpu),
		      int (*teardown)(unsigned int cpu));
int cpuhp_setup_state_nocalls(enum cpuhp_state state, const char *name,
			      int (*startup)(unsigned int cpu),
			      int (*teardown)(unsigned int cpu));
/* Runs teardown on every online CPU, then frees the state. */
void cpuhp_remove_state(enum cpuhp_state state);

/* The state cpu is in (CPUHP_ONLINE or CPUHP_OFFLINE between operations). */
enum cpuhp_state cpuhp_cpu_state(unsigned int cpu);

/* From the idle loop of a CPU going down: dies here if it is told to. */
void cpuhp_idle_check_dead(void);

#endif /* _LINUX_CPUHOTPLUG_H */
