// SPDX-License-Identifier: GPL-2.0
/*
 * bench_jl_stress: a Linux module (built against Debian's
 * linux-headers-amd64) doing what this project's text_patch stress does
 * (arch/x86/kernel/text_patch_test.c, tpt_test_stress): four keys of four
 * sites each; a reader kthread on every CPU but 0 runs all sixteen sites
 * in a tight loop while CPU 0 flips the keys in turn, flips= times (one
 * flip: one key enabled or disabled), within budget= seconds.
 *
 * It says how far it is on the console every 10 flips,
 *
 *     bench_jl_stress: flips=N
 *
 * so that a run that oopses (a reader hitting a stray int3) still shows
 * how many flips it survived, and at the end, on the console and in
 * /proc/bench_jl_stress:
 *
 *     stress flips=N of=M readers=R passes=P out_of_time=0|1
 */
#include <linux/delay.h>
#include <linux/jump_label.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/sched.h>
#include <linux/seq_file.h>

static unsigned int flips = 2000;
module_param(flips, uint, 0444);
static unsigned int budget = 300;
module_param(budget, uint, 0444);

#define BJS_S1(k) n += static_branch_unlikely(&k);
#define BJS_KEY(nr)                                                    \
	static DEFINE_STATIC_KEY_FALSE(bjs_k##nr);                     \
	static noinline int bjs_fn##nr(void)                           \
	{                                                              \
		int n = 0;                                             \
		BJS_S1(bjs_k##nr) BJS_S1(bjs_k##nr) BJS_S1(bjs_k##nr)  \
		BJS_S1(bjs_k##nr)                                      \
		return n;                                              \
	}

BJS_KEY(0)
BJS_KEY(1)
BJS_KEY(2)
BJS_KEY(3)

static struct static_key_false *bjs_keys[] = { &bjs_k0, &bjs_k1, &bjs_k2,
					       &bjs_k3 };

static bool bjs_stop;
static atomic_t bjs_running;
static atomic_long_t bjs_passes;
static char bjs_out[256];

static int bjs_reader(void *unused)
{
	unsigned long passes = 0;
	int sum = 0;

	while (!READ_ONCE(bjs_stop)) {
		sum += bjs_fn0() + bjs_fn1() + bjs_fn2() + bjs_fn3();
		if (!(++passes & 1023))
			cond_resched();
	}
	atomic_long_add(passes + (sum < 0), &bjs_passes);
	atomic_dec(&bjs_running);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(HZ / 10);
	return 0;
}

static int bjs_show(struct seq_file *m, void *v)
{
	seq_puts(m, bjs_out);
	return 0;
}

static int __init bjs_init(void)
{
	static struct task_struct *readers[NR_CPUS];
	unsigned long deadline = jiffies + budget * HZ;
	unsigned int i, k, cpu, nr = 0;
	bool state[4] = {}, late = false;

	for_each_online_cpu(cpu) {
		if (cpu == smp_processor_id())
			continue;
		readers[cpu] = kthread_create_on_cpu(bjs_reader, NULL, cpu,
						     "bjs_reader/%u");
		if (IS_ERR(readers[cpu])) {
			readers[cpu] = NULL;
			continue;
		}
		atomic_inc(&bjs_running);
		wake_up_process(readers[cpu]);
		nr++;
	}
	for (i = 0; i < flips; i++) {
		k = i % 4;

		if (time_after(jiffies, deadline)) {
			late = true;
			break;
		}
		state[k] = !state[k];
		if (state[k])
			static_branch_enable(bjs_keys[k]);
		else
			static_branch_disable(bjs_keys[k]);
		if ((i + 1) % 10 == 0)
			pr_info("bench_jl_stress: flips=%u\n", i + 1);
		cond_resched();
	}
	WRITE_ONCE(bjs_stop, true);
	while (atomic_read(&bjs_running))
		msleep(1);
	for_each_online_cpu(cpu)
		if (readers[cpu])
			kthread_stop(readers[cpu]);
	for (k = 0; k < 4; k++)
		if (state[k])
			static_branch_disable(bjs_keys[k]);
	scnprintf(bjs_out, sizeof(bjs_out),
		  "stress flips=%u of=%u readers=%u passes=%ld out_of_time=%d\n",
		  i, flips, nr, atomic_long_read(&bjs_passes), late);
	pr_info("bench_jl_stress: %s", bjs_out);
	if (!proc_create_single("bench_jl_stress", 0444, NULL, bjs_show))
		return -ENOMEM;
	return 0;
}

static void __exit bjs_exit(void)
{
	remove_proc_entry("bench_jl_stress", NULL);
}

module_init(bjs_init);
module_exit(bjs_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("static key flips under readers, for the hobby kernel's make stress-linux");
