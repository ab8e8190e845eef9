// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "cpu_hotplug": CPUs going offline and coming back at run
 * time (boot with 4 CPUs; with fewer than 3 the cases skip). What moves
 * with a CPU (runnable tasks, timers, delayed work, kworker items), what
 * the hotplug callbacks see, static keys flipped while a CPU is offline
 * (its sites, the other CPUs' branches, the IPIs of a flip), the errors of
 * bad requests, and a bounded stress: keys flipping, CPUs 1..3 cycling,
 * readers on every online CPU, timers and delayed work in flight
 * (cpu_hotplug_test.cycles=N, default 50; make stress runs 1,000).
 */
#include <linux/kernel.h>
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/cpus_alone.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/jump_label.h>
#include <linux/jump_label_ratelimit.h>
#include <linux/jump_label_arch.h>
#include <linux/jump_label_table.h>
#include <linux/kthread.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/text-patching.h>
#include <linux/tick.h>
#include <linux/timekeeping.h>
#include <linux/timer.h>
#include <linux/workqueue.h>
#include <asm/pgtable.h>
#include <fixtures/cpus_held.h>
#include <fixtures/static_key_sites.h>
#include <kunit/test.h>

#define CHT_CPU 2 /* the CPU the single cases take down */
#define CHT_WAIT_MS 5000

static unsigned int cht_cycles = 50;
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
	/* Three sync rounds, each to every other online CPU (all held in
	 * the kernel: idle ones get none, <asm/text-sync.h>). */
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
 * takes the new branch, the flip's IPIs follow the online CPUs (held in
 * the kernel for it), and the CPU takes the new branch as soon as it is
 * back.
 */
static void cht_test_flip_offline(struct kunit *test)
{
	struct cpus_held held = {};
	unsigned long ipis;
	int v[NR_CPUS], nheld;
	unsigned int cpu, n;

	KUNIT_ASSERT_EQ(test, remove_cpu(CHT_CPU), 0);
	n = num_online_cpus();
	nheld = cpus_hold(&held);
	ipis = smp_stats.ipis_sent;
	static_branch_enable(&cht_key);
	ipis = smp_stats.ipis_sent - ipis;
	cpus_release(&held);
	KUNIT_EXPECT_EQ(test, nheld, (int)n - 1);
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

/* _nocalls installs the callbacks without running startup now. */
static void cht_test_callbacks_nocalls(struct kunit *test)
{
	int st;

	memset(&cht_cb, 0, sizeof(cht_cb));
	st = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "test:cht_nocalls",
				       cht_startup, cht_teardown);
	KUNIT_ASSERT_GE(test, st, (int)CPUHP_AP_ONLINE_DYN);
	KUNIT_EXPECT_EQ(test, cht_cb.up, 0UL);
	KUNIT_EXPECT_EQ(test, cht_cb.down, 0UL);
	/* Hotplug calls them from now on. */
	KUNIT_ASSERT_EQ(test, remove_cpu(CHT_CPU), 0);
	KUNIT_EXPECT_EQ(test, cht_cb.down, 1UL << CHT_CPU);
	KUNIT_ASSERT_EQ(test, add_cpu(CHT_CPU), 0);
	KUNIT_EXPECT_EQ(test, cht_cb.up, 1UL << CHT_CPU);
	cpuhp_remove_state(st);
	static_branch_disable(&cht_cb_key);
}

/* Long enough that the dec is still pending when the CPU goes. */
static DEFINE_STATIC_KEY_DEFERRED_FALSE(cht_deferred, 2 * HZ);

static int cht_deferred_fn(void *data)
{
	static_branch_deferred_inc(&cht_deferred);
	static_branch_slow_dec_deferred(&cht_deferred); /* armed here */
	complete(data);
	kthread_wait_stop();
	return 0;
}

static bool cht_deferred_off(void *unused)
{
	return !static_key_enabled(&cht_deferred.key);
}

/* A deferred key's dec pending on the CPU when it goes still happens. */
static void cht_test_deferred_key(struct kunit *test)
{
	DECLARE_COMPLETION_ONSTACK(armed);
	struct task_struct *t;

	t = kthread_run_on_cpu(cht_deferred_fn, &armed, CHT_CPU, "cht_def/%u");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	KUNIT_ASSERT_NE(test, wait_for_completion_timeout(&armed, 5 * HZ), 0);
	if (!IS_ENABLED(CONFIG_JUMP_LABEL)) { /* the dec was immediate */
		KUNIT_EXPECT_EQ(test, static_key_count(&cht_deferred.key.key), 0);
		KUNIT_EXPECT_FALSE(test, delayed_work_pending(&cht_deferred.work));
		kthread_stop(t);
		return;
	}
	KUNIT_EXPECT_TRUE(test, static_key_enabled(&cht_deferred.key));
	KUNIT_EXPECT_TRUE(test, delayed_work_pending(&cht_deferred.work));
	KUNIT_ASSERT_EQ(test, remove_cpu(CHT_CPU), 0);
	KUNIT_EXPECT_TRUE(test, cht_wait(cht_deferred_off, NULL));
	KUNIT_EXPECT_EQ(test, static_key_count(&cht_deferred.key.key), 0);
	KUNIT_EXPECT_EQ(test, add_cpu(CHT_CPU), 0);
	kthread_stop(t);
}

/*
 * The stress. A flipper toggles cht_key, a cycler takes CPUs 1..3 down
 * and up, a reader per CPU checks the key's two sites against what the
 * flipper published (a flip in flight, or one completed meanwhile,
 * excuses a difference), a timer and a delayed work re-arm themselves on
 * the next CPU. All threads start bound; the hotplug moves them.
 */
struct cht_stress {
	bool stop;
	int in_flight; /* a flip is being made */
	unsigned long gen; /* flips completed */
	int state; /* cht_key's state after them */
	atomic_t violations;
	atomic_t passes;
	atomic_t readers;
	unsigned int cycles_done;
	int cycle_error;
	struct timer_list timer;
	atomic_t timer_fires;
	struct delayed_work dwork;
	atomic_t work_runs;
};

static struct cht_stress cht_s;

static int cht_reader_fn(void *data)
{
	struct cht_stress *s = data;
	unsigned int i = 0;

	while (!READ_ONCE(s->stop)) {
		unsigned long gen = __atomic_load_n(&s->gen, __ATOMIC_ACQUIRE);
		int state = READ_ONCE(s->state), got;

		if (READ_ONCE(s->in_flight))
			continue;
		got = cht_site() + 2 * cht_site_long();
		barrier();
		if (!READ_ONCE(s->in_flight) &&
		    __atomic_load_n(&s->gen, __ATOMIC_ACQUIRE) == gen &&
		    got != (state ? 3 : 0))
			atomic_inc(&s->violations);
		atomic_inc(&s->passes);
		if (!(++i % 1024))
			msleep(1);
	}
	atomic_dec(&s->readers);
	kthread_wait_stop();
	return 0;
}

static int cht_flipper_fn(void *data)
{
	struct cht_stress *s = data;

	while (!READ_ONCE(s->stop)) {
		int on = !s->state;

		WRITE_ONCE(s->in_flight, 1);
		barrier();
		if (on)
			static_branch_enable(&cht_key);
		else
			static_branch_disable(&cht_key);
		WRITE_ONCE(s->state, on);
		__atomic_store_n(&s->gen, s->gen + 1, __ATOMIC_RELEASE);
		WRITE_ONCE(s->in_flight, 0);
		msleep(1);
	}
	kthread_wait_stop();
	return 0;
}

static unsigned int cht_next_online(unsigned int cpu)
{
	do
		cpu = (cpu + 1) % NR_CPUS;
	while (!cpu_online(cpu));
	return cpu;
}

static void cht_stress_timer_fn(struct timer_list *t)
{
	struct cht_stress *s = from_timer(s, t, timer);

	atomic_inc(&s->timer_fires);
	if (!READ_ONCE(s->stop)) {
		t->expires = jiffies + 1;
		add_timer_on(t, cht_next_online(smp_processor_id()));
	}
}

static void cht_stress_work_fn(struct work_struct *w)
{
	struct cht_stress *s = container_of(w, struct cht_stress, dwork.work);

	atomic_inc(&s->work_runs);
	if (!READ_ONCE(s->stop))
		queue_delayed_work_on(cht_next_online(smp_processor_id()),
				      system_wq, &s->dwork, 1);
}

static int cht_cycler_fn(void *data)
{
	struct cht_stress *s = data;
	unsigned int i, cpu;
	int ret;

	for (i = 0; i < cht_cycles && !s->cycle_error; i++) {
		cpu = 1 + i % 3;
		if (!cpu_possible(cpu))
			continue;
		ret = remove_cpu(cpu);
		if (!ret)
			ret = add_cpu(cpu);
		if (ret)
			s->cycle_error = ret;
		WRITE_ONCE(s->cycles_done, i + 1);
	}
	WRITE_ONCE(s->stop, true);
	kthread_wait_stop();
	return 0;
}

static void cht_test_stress(struct kunit *test)
{
	struct cht_stress *s = &cht_s;
	struct task_struct *reader[NR_CPUS], *flipper, *cycler;
	unsigned int cpu, n = 0, timer_fires, work_runs;
	u64 start = ktime_get_ns();
	int v[NR_CPUS];

	memset(s, 0, sizeof(*s));
	atomic_set(&s->violations, 0);
	atomic_set(&s->passes, 0);
	atomic_set(&s->readers, 0);
	atomic_set(&s->timer_fires, 0);
	atomic_set(&s->work_runs, 0);
	for_each_online_cpu(cpu) {
		reader[n] = kthread_run_on_cpu(cht_reader_fn, s, cpu,
					       "cht_read/%u");
		KUNIT_ASSERT_FALSE(test, IS_ERR(reader[n]));
		atomic_inc(&s->readers);
		n++;
	}
	timer_setup(&s->timer, cht_stress_timer_fn, 0);
	s->timer.expires = jiffies + 1;
	add_timer_on(&s->timer, 1);
	INIT_DELAYED_WORK(&s->dwork, cht_stress_work_fn);
	queue_delayed_work_on(2, system_wq, &s->dwork, 1);
	flipper = kthread_run(cht_flipper_fn, s, "cht_flip");
	cycler = kthread_run(cht_cycler_fn, s, "cht_cycle");
	KUNIT_ASSERT_FALSE(test, IS_ERR(flipper) || IS_ERR(cycler));
	while (!READ_ONCE(s->stop))
		msleep(10);
	kthread_stop(cycler);
	kthread_stop(flipper);
	while (atomic_read(&s->readers))
		msleep(1);
	for (cpu = 0; cpu < n; cpu++)
		kthread_stop(reader[cpu]);
	del_timer_sync(&s->timer);
	cancel_delayed_work_sync(&s->dwork);
	timer_fires = atomic_read(&s->timer_fires);
	work_runs = atomic_read(&s->work_runs);
	kunit_info(test,
		   "%u cycles in %llu ms: %lu flips, %d reader passes, %d wrong branches, %u timer fires, %u work runs",
		   s->cycles_done, (ktime_get_ns() - start) / 1000000, s->gen,
		   atomic_read(&s->passes), atomic_read(&s->violations),
		   timer_fires, work_runs);
	KUNIT_EXPECT_EQ(test, s->cycle_error, 0);
	KUNIT_EXPECT_EQ(test, s->cycles_done, cht_cycles);
	KUNIT_EXPECT_EQ(test, atomic_read(&s->violations), 0);
	KUNIT_EXPECT_GT(test, s->gen, 0UL);
	KUNIT_EXPECT_GT(test, timer_fires, 0U);
	KUNIT_EXPECT_GT(test, work_runs, 0U);
	KUNIT_EXPECT_EQ(test, num_online_cpus(), n);
	/* The key ends as published, on every CPU, in every site. */
	KUNIT_EXPECT_EQ(test, static_key_enabled(&cht_key), s->state);
	cht_read_all(v);
	for_each_online_cpu(cpu)
		KUNIT_EXPECT_EQ(test, v[cpu], s->state ? 3 : 0);
	static_branch_disable(&cht_key);
}

/* The keys of <linux/cpus_alone.h>: how many are on, and their sites. */
struct cht_alone {
	unsigned int on, count_one, sites, wrong;
};

#ifdef CONFIG_JUMP_LABEL
static int cht_alone_site(struct jump_entry *entry, struct module *mod,
			  void *data)
{
	struct cht_alone *a = data;
	bool enabled = static_key_enabled(jump_entry_key(entry));

	a->sites++;
	a->wrong += !arch_jump_label_site_holds(
		entry, enabled ^ jump_entry_is_branch(entry));
	return 0;
}
#endif

static struct cht_alone cht_alone_keys(void)
{
	struct cht_alone a = {};
	struct static_key *key;
	unsigned int i;

	for (i = 0; (key = cpus_alone_key(i)); i++) {
		a.on += static_key_enabled(key);
		a.count_one += static_key_count(key) == 1;
#ifdef CONFIG_JUMP_LABEL
		static_key_for_each_site(key, cht_alone_site, &a);
#endif
	}
	return a;
}

static void cht_count_call(void *info)
{
	atomic_inc(info);
}

/*
 * The keys of <linux/cpus_alone.h> with CPUs 1..n-1 going down, then up
 * again: on once CPU0 is alone, off before a second CPU starts, each time
 * all of them in one batch (three sync rounds) from the hotplug callback,
 * with no batch for the CPUs in between; meanwhile their users (a cross
 * call, a TLB shootdown) work.
 */
static void cht_test_alone_keys(struct kunit *test)
{
	unsigned int n = cpus_alone_keys_count(), cpus = 0, cpu;
	bool jl = IS_ENABLED(CONFIG_JUMP_LABEL);
	struct text_poke_stats st;
	struct cht_alone a;
	atomic_t calls;

	KUNIT_ASSERT_GE(test, n, 2U);
	a = cht_alone_keys();
	KUNIT_EXPECT_EQ(test, a.on, 0U);
	KUNIT_EXPECT_EQ(test, a.wrong, 0U);
	if (jl)
		KUNIT_EXPECT_GE(test, a.sites, n);
	for (cpu = NR_CPUS - 1; cpu >= 1; cpu--) {
		if (!cpu_online(cpu))
			continue;
		st = text_poke_get_stats();
		KUNIT_ASSERT_EQ(test, remove_cpu(cpu), 0);
		cpus++;
		a = cht_alone_keys();
		KUNIT_EXPECT_EQ(test, a.on, num_online_cpus() == 1 ? n : 0);
		KUNIT_EXPECT_EQ(test, a.count_one, a.on);
		KUNIT_EXPECT_EQ(test, a.wrong, 0U);
		if (!jl)
			continue;
		KUNIT_EXPECT_EQ(test,
				text_poke_get_stats().batches - st.batches,
				num_online_cpus() == 1 ? 1UL : 0UL);
		KUNIT_EXPECT_EQ(test,
				text_poke_get_stats().sync_rounds -
					st.sync_rounds,
				num_online_cpus() == 1 ? 3UL : 0UL);
		if (num_online_cpus() == 1)
			KUNIT_EXPECT_EQ(test,
					text_poke_get_stats().sites - st.sites,
					(unsigned long)a.sites);
	}
	KUNIT_ASSERT_EQ(test, num_online_cpus(), 1U);
	atomic_set(&calls, 0);
	on_each_cpu(cht_count_call, &calls, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&calls), 1);
	flush_tlb_all();
	for (cpu = 1; cpu < NR_CPUS && cpus; cpu++) {
		if (!cpu_possible(cpu) || cpu_online(cpu))
			continue;
		st = text_poke_get_stats();
		KUNIT_ASSERT_EQ(test, add_cpu(cpu), 0);
		cpus--;
		a = cht_alone_keys();
		KUNIT_EXPECT_EQ(test, a.on, 0U);
		KUNIT_EXPECT_EQ(test, a.wrong, 0U);
		if (jl)
			KUNIT_EXPECT_EQ(test,
					text_poke_get_stats().sync_rounds -
						st.sync_rounds,
					num_online_cpus() == 2 ? 3UL : 0UL);
	}
	atomic_set(&calls, 0);
	on_each_cpu(cht_count_call, &calls, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&calls), (int)num_online_cpus());
}

static struct kunit_case cht_cases[] = {
	KUNIT_CASE(cht_test_bad_requests),
	KUNIT_CASE(cht_test_down_up),
	KUNIT_CASE(cht_test_task_moves),
	KUNIT_CASE(cht_test_timers_move),
	KUNIT_CASE(cht_test_flip_offline),
	KUNIT_CASE(cht_test_callbacks),
	KUNIT_CASE(cht_test_callbacks_nocalls),
	KUNIT_CASE(cht_test_deferred_key),
	KUNIT_CASE(cht_test_stress),
	KUNIT_CASE(cht_test_alone_keys),
	{}
};

static struct kunit_suite cht_suite = {
	.name = "cpu_hotplug",
	.init = cht_init,
	.exit = cht_exit,
	.test_cases = cht_cases,
};
kunit_test_suite(cht_suite);

/*
 * Booted with maxcpus=N (the "maxcpus" run of make test): a CPU that never
 * ran starts at run time, gets its kworker and ticks, and goes again.
 */
static void cht_test_late_cpu(struct kunit *test)
{
	struct cht_work w = { .cpu = -1 };
	unsigned int cpu, late = NR_CPUS;
	int where = -1;

	for_each_possible_cpu(cpu)
		if (!cpu_online(cpu)) {
			late = cpu;
			break;
		}
	if (late == NR_CPUS)
		kunit_skip(test, "every CPU is online: boot with maxcpus=");
	KUNIT_EXPECT_EQ(test, cpuhp_cpu_state(late), CPUHP_OFFLINE);
	KUNIT_ASSERT_EQ(test, add_cpu(late), 0);
	KUNIT_EXPECT_TRUE(test, cpu_active(late));
	KUNIT_EXPECT_EQ(test, smp_call_function_single(late, cht_where, &where,
						       1), 0);
	KUNIT_EXPECT_EQ(test, where, (int)late);
	init_completion(&w.done);
	INIT_DELAYED_WORK(&w.dwork, cht_work_fn);
	queue_delayed_work_on(late, system_wq, &w.dwork, 2);
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&w.done, 5 * HZ), 0);
	KUNIT_EXPECT_EQ(test, w.cpu, (int)late);
	KUNIT_EXPECT_GT(test, per_cpu(tick_count, late), 0UL);
	KUNIT_EXPECT_EQ(test, remove_cpu(late), 0);
	KUNIT_EXPECT_FALSE(test, cpu_online(late));
}

static struct kunit_case cht_boot_cases[] = {
	KUNIT_CASE(cht_test_late_cpu),
	{}
};

static struct kunit_suite cht_boot_suite = {
	.name = "cpu_hotplug_boot",
	.test_cases = cht_boot_cases,
};
kunit_test_suite(cht_boot_suite);
