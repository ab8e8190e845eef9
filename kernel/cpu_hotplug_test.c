// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "cpu_hotplug": CPUs going offline and coming back at run
 * time (boot with 4 CPUs; with fewer than 3 the cases skip). What moves
 * with a CPU (runnable tasks, timers, delayed work, kworker items), what
 * the hotplug callbacks see, static keys flipped while a CPU is offline
 * (its sites, the other CPUs' branches, the IPIs of a flip), the errors of
 * bad requests, and a bounded stress: keys flipping, CPUs 1..3 cycling,
 * readers on every online CPU, timers and delayed work in flight
 * (cpu_hotplug_test.cycles=N, default 12; make stress runs 200).
 */
#include <linux/kernel.h>
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/jump_label.h>
#include <linux/jump_label_ratelimit.h>
#include <linux/kthread.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/timekeeping.h>
#include <linux/timer.h>
#include <linux/workqueue.h>
#include <kunit/static_key_sites.h>
#include <kunit/test.h>

#define CHT_CPU 2 /* the CPU the single cases take down */
#define CHT_WAIT_MS 5000

static unsigned int cht_cycles = 12;
core_param_named("cpu_hotplug_test.cycles", cht_cycles, uint);

DEFINE_STATIC_KEY_FALSE(cht_key);
STATIC_KEY_TEST_UNLIKELY(cht_site, &cht_key)

static int cht_init(struct kunit *test)
{
	if (num_online_cpus() < 3 || !cpu_online(CHT_CPU))
		kunit_skip(test, "needs CPU%d and at least 3 CPUs online",
			   CHT_CPU);
	return 0;
}

/* Every CPU back online, whatever a case did. */
static void cht_exit(struct kunit *test)
{
	unsigned int cpu;

	for (cpu = 1; cpu < 4; cpu++)
		if (cpu_possible(cpu) && !cpu_online(cpu))
			add_cpu(cpu);
}

/* Waits, sleeping, until cond(arg) or CHT_WAIT_MS pass. */
static bool cht_wait(bool (*cond)(void *), void *arg)
{
	unsigned int ms;

	for (ms = 0; ms < CHT_WAIT_MS; ms++) {
		if (cond(arg))
			return true;
		msleep(1);
	}
	return cond(arg);
}

static void cht_test_bad_requests(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, remove_cpu(0), -EPERM);
	KUNIT_EXPECT_EQ(test, remove_cpu(NR_CPUS), -ENODEV);
	KUNIT_EXPECT_EQ(test, add_cpu(CHT_CPU), -EALREADY);
	KUNIT_ASSERT_EQ(test, remove_cpu(CHT_CPU), 0);
	KUNIT_EXPECT_EQ(test, remove_cpu(CHT_CPU), -EALREADY);
	KUNIT_EXPECT_EQ(test, add_cpu(CHT_CPU), 0);
	KUNIT_EXPECT_TRUE(test, cpu_online(0));
}

static void cht_where(void *info)
{
	WRITE_ONCE(*(int *)info, smp_processor_id());
}

/* Down and up: the masks, the states, and the CPU runs cross calls again. */
static void cht_test_down_up(struct kunit *test)
{
	unsigned int n = num_online_cpus();
	int where = -1;

	KUNIT_ASSERT_EQ(test, remove_cpu(CHT_CPU), 0);
	KUNIT_EXPECT_FALSE(test, cpu_online(CHT_CPU));
	KUNIT_EXPECT_FALSE(test, cpu_active(CHT_CPU));
	KUNIT_EXPECT_EQ(test, num_online_cpus(), n - 1);
	KUNIT_EXPECT_EQ(test, cpuhp_cpu_state(CHT_CPU), CPUHP_OFFLINE);
	KUNIT_EXPECT_EQ(test, smp_call_function_single(CHT_CPU, cht_where,
						       &where, 1), -ENXIO);
	KUNIT_ASSERT_EQ(test, add_cpu(CHT_CPU), 0);
	KUNIT_EXPECT_TRUE(test, cpu_online(CHT_CPU));
	KUNIT_EXPECT_TRUE(test, cpu_active(CHT_CPU));
	KUNIT_EXPECT_EQ(test, cpuhp_cpu_state(CHT_CPU), CPUHP_ONLINE);
	KUNIT_EXPECT_EQ(test, smp_call_function_single(CHT_CPU, cht_where,
						       &where, 1), 0);
	KUNIT_EXPECT_EQ(test, where, CHT_CPU);
}

struct cht_spinner {
	atomic_t loops;
	int cpu; /* where it ran last */
	bool left; /* it ran somewhere else than CHT_CPU after starting there */
};

static int cht_spinner_fn(void *data)
{
	struct cht_spinner *s = data;

	while (!kthread_should_stop()) {
		int cpu = smp_processor_id();

		if (cpu != CHT_CPU && atomic_read(&s->loops))
			WRITE_ONCE(s->left, true);
		WRITE_ONCE(s->cpu, cpu);
		atomic_inc(&s->loops);
		if (!(atomic_read(&s->loops) & 255))
			msleep(1);
		else
			cond_resched();
	}
	return 0;
}

static bool cht_loops_past(void *arg)
{
	struct cht_spinner *s = arg;

	return atomic_read(&s->loops) > 1000 && READ_ONCE(s->left);
}

/* A runnable thread bound to the CPU goes on running on another one. */
static void cht_test_task_moves(struct kunit *test)
{
	struct cht_spinner s = { .cpu = -1 };
	struct task_struct *t;
	unsigned long migrations = 0;
	unsigned int cpu;

	atomic_set(&s.loops, 0);
	t = kthread_run_on_cpu(cht_spinner_fn, &s, CHT_CPU, "cht_spin/%u");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	while (!atomic_read(&s.loops))
		msleep(1);
	KUNIT_EXPECT_EQ(test, READ_ONCE(s.cpu), CHT_CPU);
	for_each_online_cpu(cpu)
		migrations -= sched_cpu_stats(cpu).migrations;
	KUNIT_ASSERT_EQ(test, remove_cpu(CHT_CPU), 0);
	atomic_set(&s.loops, 1);
	KUNIT_EXPECT_TRUE(test, cht_wait(cht_loops_past, &s));
	KUNIT_EXPECT_NE(test, READ_ONCE(s.cpu), CHT_CPU);
	for_each_online_cpu(cpu)
		migrations += sched_cpu_stats(cpu).migrations;
	KUNIT_EXPECT_GE(test, migrations, 1UL);
	KUNIT_EXPECT_EQ(test, add_cpu(CHT_CPU), 0);
	kthread_stop(t);
}

struct cht_timer {
	struct timer_list timer;
	int cpu;
	struct completion done;
};

static void cht_timer_fn(struct timer_list *tl)
{
	struct cht_timer *t = from_timer(t, tl, timer);

	t->cpu = smp_processor_id();
	complete(&t->done);
}

struct cht_work {
	struct delayed_work dwork;
	int cpu;
	struct completion done;
};

static void cht_work_fn(struct work_struct *w)
{
	struct cht_work *cw = container_of(w, struct cht_work, dwork.work);

	cw->cpu = smp_processor_id();
	complete(&cw->done);
}

/* A timer and a delayed work armed on the CPU fire after it went away. */
static void cht_test_timers_move(struct kunit *test)
{
	struct cht_timer t = { .cpu = -1 };
	struct cht_work w = { .cpu = -1 };

	init_completion(&t.done);
	init_completion(&w.done);
	timer_setup(&t.timer, cht_timer_fn, 0);
	t.timer.expires = jiffies + msecs_to_jiffies(200);
	add_timer_on(&t.timer, CHT_CPU);
	INIT_DELAYED_WORK(&w.dwork, cht_work_fn);
	KUNIT_ASSERT_TRUE(test, queue_delayed_work_on(CHT_CPU, system_wq,
						      &w.dwork,
						      msecs_to_jiffies(200)));
	KUNIT_ASSERT_EQ(test, remove_cpu(CHT_CPU), 0);
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&t.done, 5 * HZ), 0);
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&w.done, 5 * HZ), 0);
	KUNIT_EXPECT_NE(test, t.cpu, CHT_CPU);
	KUNIT_EXPECT_NE(test, w.cpu, CHT_CPU);
	KUNIT_EXPECT_GE(test, t.cpu, 0);
	KUNIT_EXPECT_GE(test, w.cpu, 0);
	/* A work queued on the offline CPU runs elsewhere. */
	reinit_completion(&w.done);
	w.cpu = -1;
	queue_delayed_work_on(CHT_CPU, system_wq, &w.dwork, 0);
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&w.done, 5 * HZ), 0);
	KUNIT_EXPECT_NE(test, w.cpu, CHT_CPU);
	KUNIT_ASSERT_EQ(test, add_cpu(CHT_CPU), 0);
	/* And on the CPU again once it is back: kworker/2 is. */
	reinit_completion(&w.done);
	queue_delayed_work_on(CHT_CPU, system_wq, &w.dwork, 0);
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&w.done, 5 * HZ), 0);
	KUNIT_EXPECT_EQ(test, w.cpu, CHT_CPU);
	del_timer_sync(&t.timer);
	cancel_delayed_work_sync(&w.dwork);
}

static void cht_read_site(void *info)
{
	int *v = info;

	v[smp_processor_id()] = cht_site() + 2 * cht_site_long();
}

/* Each online CPU's branches: 3 (both taken) or 0; -1 where none ran. */
static void cht_read_all(int *v)
{
	unsigned int cpu;

	for (cpu = 0; cpu < NR_CPUS; cpu++)
		v[cpu] = -1;
	on_each_cpu(cht_read_site, v, 1);
}

#ifdef CONFIG_JUMP_LABEL
static void cht_check_sites(struct kunit *test, unsigned long ipis,
			    unsigned int n)
{
	KUNIT_EXPECT_EQ(test, static_key_test_wrong_sites(&cht_key.key, true),
			0);
	/* Three sync rounds, each to every other online CPU. */
	KUNIT_EXPECT_EQ(test, ipis, 3UL * (n - 1));
}
#else
static void cht_check_sites(struct kunit *test, unsigned long ipis,
			    unsigned int n)
{
	KUNIT_EXPECT_EQ(test, ipis, 0UL);
}
#endif

/*
 * A key flipped while the CPU is offline: sites right, every online CPU
 * takes the new branch, the flip's IPIs follow the online CPUs, and the
 * CPU takes the new branch as soon as it is back.
 */
static void cht_test_flip_offline(struct kunit *test)
{
	unsigned long ipis;
	int v[NR_CPUS];
	unsigned int cpu, n;

	KUNIT_ASSERT_EQ(test, remove_cpu(CHT_CPU), 0);
	n = num_online_cpus();
	ipis = smp_stats.ipis_sent;
	static_branch_enable(&cht_key);
	ipis = smp_stats.ipis_sent - ipis;
	cht_check_sites(test, ipis, n);
	cht_read_all(v);
	for_each_possible_cpu(cpu)
		KUNIT_EXPECT_EQ(test, v[cpu], cpu_online(cpu) ? 3 : -1);
	KUNIT_ASSERT_EQ(test, add_cpu(CHT_CPU), 0);
	v[CHT_CPU] = -1;
	smp_call_function_single(CHT_CPU, cht_read_site, v, 1);
	KUNIT_EXPECT_EQ(test, v[CHT_CPU], 3);
	static_branch_disable(&cht_key);
	cht_read_all(v);
	for_each_online_cpu(cpu)
		KUNIT_EXPECT_EQ(test, v[cpu], 0);
}

/* The callbacks of a dynamic state, and a key flipped from them. */
static struct {
	unsigned long up, down; /* bit per CPU: startup, teardown called */
	int last_up, last_down;
	bool held_up, held_down; /* lockdep_assert_cpus_held() was quiet */
} cht_cb;

DEFINE_STATIC_KEY_FALSE(cht_cb_key);

static int cht_startup(unsigned int cpu)
{
	__atomic_fetch_or(&cht_cb.up, 1UL << cpu, __ATOMIC_RELAXED);
	cht_cb.last_up = cpu;
	if (cpu == CHT_CPU)
		static_branch_disable_cpuslocked(&cht_cb_key);
	return 0;
}

static int cht_teardown(unsigned int cpu)
{
	__atomic_fetch_or(&cht_cb.down, 1UL << cpu, __ATOMIC_RELAXED);
	cht_cb.last_down = cpu;
	if (cpu == CHT_CPU)
		static_branch_enable_cpuslocked(&cht_cb_key);
	return 0;
}

static void cht_test_callbacks(struct kunit *test)
{
	unsigned long online = 0;
	unsigned int cpu;
	int st;

	for_each_online_cpu(cpu)
		online |= 1UL << cpu;
	memset(&cht_cb, 0, sizeof(cht_cb));
	st = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "test:cht", cht_startup,
			       cht_teardown);
	KUNIT_ASSERT_GE(test, st, (int)CPUHP_AP_ONLINE_DYN);
	KUNIT_EXPECT_EQ(test, cht_cb.up, online);
	KUNIT_EXPECT_EQ(test, cht_cb.down, 0UL);
	KUNIT_ASSERT_EQ(test, remove_cpu(CHT_CPU), 0);
	KUNIT_EXPECT_EQ(test, cht_cb.down, 1UL << CHT_CPU);
	KUNIT_EXPECT_TRUE(test, static_key_enabled(&cht_cb_key));
	cht_cb.up = 0;
	KUNIT_ASSERT_EQ(test, add_cpu(CHT_CPU), 0);
	KUNIT_EXPECT_EQ(test, cht_cb.up, 1UL << CHT_CPU);
	KUNIT_EXPECT_FALSE(test, static_key_enabled(&cht_cb_key));
	cht_cb.down = 0;
	cpuhp_remove_state(st);
	KUNIT_EXPECT_EQ(test, cht_cb.down, online);
	/* Removed: hotplug no longer calls it. */
	cht_cb.down = 0;
	KUNIT_ASSERT_EQ(test, remove_cpu(CHT_CPU), 0);
	KUNIT_ASSERT_EQ(test, add_cpu(CHT_CPU), 0);
	KUNIT_EXPECT_EQ(test, cht_cb.down, 0UL);
	static_branch_disable(&cht_cb_key);
	KUNIT_EXPECT_EQ(test, cpuhp_setup_state(CPUHP_AP_ACTIVE, "taken", NULL,
						NULL), -EINVAL);
}

static struct kunit_case cht_cases[] = {
	KUNIT_CASE(cht_test_bad_requests),
	KUNIT_CASE(cht_test_down_up),
	KUNIT_CASE(cht_test_task_moves),
	KUNIT_CASE(cht_test_timers_move),
	KUNIT_CASE(cht_test_flip_offline),
	KUNIT_CASE(cht_test_callbacks),
	{}
};

static struct kunit_suite cht_suite = {
	.name = "cpu_hotplug",
	.init = cht_init,
	.exit = cht_exit,
	.test_cases = cht_cases,
};
kunit_test_suite(cht_suite);
