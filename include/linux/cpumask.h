/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_CPUMASK_H
#define _LINUX_CPUMASK_H

#include <linux/compiler.h>
#include <linux/threads.h>
#include <linux/types.h>

/*
 * Sets of CPUs: one bit per CPU number. Setting and clearing a bit are
 * atomic, so CPUs may change their own bits in a shared mask (an AP marks
 * itself online) while others read it.
 *
 *   cpu_possible_mask  CPUs the firmware reported, up to NR_CPUS; fixed
 *                      once setup_arch() is done; each has per-CPU data
 *   cpu_online_mask    CPUs that are running and take IPIs
 *   cpu_active_mask    online CPUs the scheduler places tasks on: a CPU
 *                      going offline leaves it first (kernel/cpu.c)
 *
 * CPU 0, the boot CPU, is in all three from the start.
 */
#define BITS_PER_LONG 64
#define BITS_TO_LONGS(n) (((n) + BITS_PER_LONG - 1) / BITS_PER_LONG)

struct cpumask {
	unsigned long bits[BITS_TO_LONGS(NR_CPUS)];
};
typedef struct cpumask cpumask_t;

extern struct cpumask __cpu_possible_mask, __cpu_online_mask;
extern struct cpumask __cpu_active_mask;
#define cpu_possible_mask ((const struct cpumask *)&__cpu_possible_mask)
#define cpu_online_mask ((const struct cpumask *)&__cpu_online_mask)
#define cpu_active_mask ((const struct cpumask *)&__cpu_active_mask)

static inline void cpumask_set_cpu(unsigned int cpu, struct cpumask *mask)
{
	__atomic_fetch_or(&mask->bits[cpu / BITS_PER_LONG],
			  1UL << (cpu % BITS_PER_LONG), __ATOMIC_SEQ_CST);
}

static inline void cpumask_clear_cpu(unsigned int cpu, struct cpumask *mask)
{
	__atomic_fetch_and(&mask->bits[cpu / BITS_PER_LONG],
			   ~(1UL << (cpu % BITS_PER_LONG)), __ATOMIC_SEQ_CST);
}

static inline bool cpumask_test_cpu(unsigned int cpu,
				    const struct cpumask *mask)
{
	unsigned long word;

	if (cpu >= NR_CPUS)
		return false;
	word = READ_ONCE(mask->bits[cpu / BITS_PER_LONG]);
	return (word >> (cpu % BITS_PER_LONG)) & 1;
}

static inline void cpumask_clear(struct cpumask *mask)
{
	unsigned int i;

	for (i = 0; i < BITS_TO_LONGS(NR_CPUS); i++)
		WRITE_ONCE(mask->bits[i], 0);
}

/*
 * The first CPU in mask after cpu (-1 to start), or NR_CPUS if none: a
 * word at a time, each read once (bits may change under us).
 */
static inline unsigned int cpumask_next(int cpu, const struct cpumask *mask)
{
	unsigned int n = cpu + 1;
	unsigned long word;

	while (n < NR_CPUS) {
		word = READ_ONCE(mask->bits[n / BITS_PER_LONG]) >>
		       (n % BITS_PER_LONG);
		if (word) {
			n += __builtin_ctzl(word);
			return n < NR_CPUS ? n : NR_CPUS;
		}
		n = (n / BITS_PER_LONG + 1) * BITS_PER_LONG;
	}
	return NR_CPUS;
}

static inline unsigned int cpumask_first(const struct cpumask *mask)
{
	return cpumask_next(-1, mask);
}

#define for_each_cpu(cpu, mask)                            \
	for ((cpu) = cpumask_first(mask); (cpu) < NR_CPUS; \
	     (cpu) = cpumask_next((cpu), (mask)))

static inline unsigned int cpumask_weight(const struct cpumask *mask)
{
	unsigned int i, n = 0;
	unsigned long word;

	for (i = 0; i < BITS_TO_LONGS(NR_CPUS); i++)
		for (word = READ_ONCE(mask->bits[i]); word; word &= word - 1)
			n++;
	return n;
}

#define for_each_possible_cpu(cpu) for_each_cpu((cpu), cpu_possible_mask)
#define for_each_online_cpu(cpu) for_each_cpu((cpu), cpu_online_mask)

static inline bool cpu_possible(unsigned int cpu)
{
	return cpumask_test_cpu(cpu, cpu_possible_mask);
}

static inline bool cpu_online(unsigned int cpu)
{
	return cpumask_test_cpu(cpu, cpu_online_mask);
}

/* Active: online, and the scheduler places tasks on it (not going down). */
static inline bool cpu_active(unsigned int cpu)
{
	return cpumask_test_cpu(cpu, cpu_active_mask);
}

static inline unsigned int num_active_cpus(void)
{
	return cpumask_weight(cpu_active_mask);
}

static inline unsigned int num_possible_cpus(void)
{
	return cpumask_weight(cpu_possible_mask);
}

static inline unsigned int num_online_cpus(void)
{
	return cpumask_weight(cpu_online_mask);
}

static inline void set_cpu_possible(unsigned int cpu, bool possible)
{
	if (possible)
		cpumask_set_cpu(cpu, &__cpu_possible_mask);
	else
		cpumask_clear_cpu(cpu, &__cpu_possible_mask);
}

static inline void set_cpu_online(unsigned int cpu, bool online)
{
	if (online)
		cpumask_set_cpu(cpu, &__cpu_online_mask);
	else
		cpumask_clear_cpu(cpu, &__cpu_online_mask);
}

static inline void set_cpu_active(unsigned int cpu, bool active)
{
	if (active)
		cpumask_set_cpu(cpu, &__cpu_active_mask);
	else
		cpumask_clear_cpu(cpu, &__cpu_active_mask);
}

#define for_each_active_cpu(cpu) for_each_cpu((cpu), cpu_active_mask)

#endif /* _LINUX_CPUMASK_H */
