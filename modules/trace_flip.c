// SPDX-License-Identifier: GPL-2.0
/*
 * A key of many sites, and readers running them on every other CPU while
 * it flips: what make trace-flip loads before it flips trace_flip_key at
 * the console with the patch engine's events on (scripts/trace_flip.py,
 * Documentation/static-keys.rst, A flip on a timeline).
 *
 * The key's TF_SITES sites are in 16 functions of TF_GROUP each. Loading
 * starts one reader per online CPU but this one (pinned there), each
 * running burst= functions (default 4) every millisecond, round the 16,
 * for seconds= seconds (default 20): CPUs are in the sites while the batch
 * rewrites them and hit its int3s, but not so often that the records of
 * the hits drown the batch's (a batch under TCG on a loaded host can take
 * 100 ms). Between bursts a reader waits in the kernel, not asleep: a CPU
 * that is idle gets no sync IPI (arch/x86/kernel/text_sync.c), and the
 * timeline is to show the three rounds on every CPU. Then they sleep until
 * unloaded. hits counts the branches taken,
 * for the curious.
 */
#include <linux/module.h>
#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/preempt.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/smp.h>

#define TF_GROUP 4
#define TF_SITES (16 * TF_GROUP)

static DEFINE_STATIC_KEY_FALSE(trace_flip_key);

static unsigned int seconds = 20;
module_param(seconds, uint, 0444);
MODULE_PARM_DESC(seconds, "how long the readers run, in seconds");
static unsigned int burst = 4;
module_param(burst, uint, 0444);
MODULE_PARM_DESC(burst, "groups of 4 sites run each tick (1 ms), waiting in the kernel between");

static struct task_struct *readers[NR_CPUS];
static unsigned long hits[NR_CPUS];

#define TF_SITE                                              \
	do {                                                 \
		if (static_branch_unlikely(&trace_flip_key)) \
			n++;                                 \
	} while (0)

/* TF_GROUP sites of the key: how many were taken. */
#define TF_READ(i)                                     \
	static noinline unsigned long tf_read##i(void) \
	{                                              \
		unsigned long n = 0;                   \
                                                       \
		TF_SITE;                               \
		TF_SITE;                               \
		TF_SITE;                               \
		TF_SITE;                               \
		return n;                              \
	}
TF_READ(0);
TF_READ(1);
TF_READ(2);
TF_READ(3);
TF_READ(4);
TF_READ(5);
TF_READ(6);
TF_READ(7);
TF_READ(8);
TF_READ(9);
TF_READ(10);
TF_READ(11);
TF_READ(12);
TF_READ(13);
TF_READ(14);
TF_READ(15);

static unsigned long (*const tf_reads[])(void) = {
	tf_read0,  tf_read1,  tf_read2,	 tf_read3,  tf_read4,  tf_read5,
	tf_read6,  tf_read7,  tf_read8,	 tf_read9,  tf_read10, tf_read11,
	tf_read12, tf_read13, tf_read14, tf_read15,
};

/* Every millisecond, the next burst groups of sites, round the key. */
static int tf_reader(void *data)
{
	unsigned int cpu = smp_processor_id(), i, next = cpu;
	unsigned long end = jiffies + msecs_to_jiffies(seconds * 1000);

	while (!kthread_should_stop() && time_before(jiffies, end)) {
		unsigned long tick = jiffies;

		for (i = 0; i < burst; i++)
			hits[cpu] += tf_reads[next++ % ARRAY_SIZE(tf_reads)]();
		while (jiffies == tick && !kthread_should_stop())
			cpu_relax();
	}
	kthread_wait_stop();
	return 0;
}

static int __init trace_flip_init(void)
{
	unsigned int cpu, this, n = 0;

	/* A hint only: the console's thread may move later. */
	preempt_disable();
	this = smp_processor_id();
	preempt_enable();
	BUILD_BUG_ON(ARRAY_SIZE(tf_reads) * TF_GROUP != TF_SITES);
	for_each_online_cpu(cpu) {
		struct task_struct *t;

		if (cpu == this)
			continue;
		t = kthread_run_on_cpu(tf_reader, NULL, cpu, "tf_reader/%u");
		if (IS_ERR(t)) {
			pr_warn("trace_flip: no reader on CPU %u (%ld)\n", cpu,
				PTR_ERR(t));
			continue;
		}
		readers[cpu] = t;
		n++;
	}
	pr_info("trace_flip: trace_flip_key has %d sites; %u readers for %u s\n",
		TF_SITES, n, seconds);
	return 0;
}

static void trace_flip_exit(void)
{
	unsigned long total = 0;
	unsigned int cpu;

	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		if (readers[cpu])
			kthread_stop(readers[cpu]);
		total += hits[cpu];
	}
	pr_info("trace_flip: readers stopped, %lu branches taken\n", total);
}

module_init(trace_flip_init);
module_exit(trace_flip_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("A key of 64 sites, and readers on the other CPUs");
