// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of cross-CPU calls, per-CPU variables and spinning locks, under
 * real concurrency when booted with several CPUs (QEMU's multi-threaded
 * TCG runs each on a host thread of its own). Booted with one CPU, every
 * case still runs and checks the degenerate behaviour: a call reaches this
 * CPU alone, directly.
 *
 * Whatever a func on another CPU touches is static, not on the test's
 * stack, and every wait for another CPU gives up after SMP_TEST_TIMEOUT_MS
 * and fails the case instead of hanging the boot.
 */
#include <linux/atomic.h>
#include <linux/cpus_alone.h>
#include <linux/delay.h>
#include <linux/irqflags.h>
#include <linux/percpu.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <asm/processor.h>
#include <kunit/test.h>

#define SMP_TEST_TIMEOUT_MS 10000
#define SMP_TEST_INCREMENTS 100000
#define SMP_TEST_ROUNDS 50
#define SMP_TEST_SLOW_US 20000

static DEFINE_PER_CPU(unsigned int, smp_test_hits);
static DEFINE_PER_CPU(unsigned int, smp_test_irqs_on); /* funcs that ran so */
static DEFINE_PER_CPU(unsigned long, smp_test_value);
static DEFINE_PER_CPU(unsigned long *, smp_test_where);
static DEFINE_PER_CPU(unsigned long, smp_test_gs_base);

static void smp_test_reset(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		per_cpu(smp_test_hits, cpu) = 0;
		per_cpu(smp_test_irqs_on, cpu) = 0;
	}
}

/* The func most cases send: one hit on the CPU it runs on. */
static void smp_test_hit(void *info)
{
	this_cpu_inc(smp_test_hits);
	if (!irqs_disabled())
		this_cpu_inc(smp_test_irqs_on);
}

static unsigned int smp_test_sum(unsigned int *var)
{
	unsigned int cpu, sum = 0;

	for_each_possible_cpu(cpu)
		sum += *per_cpu_ptr(var, cpu);
	return sum;
}

static void smp_test_record_cpu(void *info)
{
	*(int *)info = smp_processor_id();
}

/* Another online CPU (the highest numbered), or this one if alone. */
static unsigned int smp_test_other_cpu(void)
{
	unsigned int cpu, other = smp_processor_id();

	for_each_online_cpu(cpu)
		if (cpu != smp_processor_id())
			other = cpu;
	return other;
}

/* Waits for *v to reach want; false after SMP_TEST_TIMEOUT_MS. */
static bool smp_test_wait_for(atomic_t *v, int want)
{
	unsigned long us;

	for (us = 0; us < SMP_TEST_TIMEOUT_MS * 1000UL; us += 10) {
		if (atomic_read(v) >= want)
			return true;
		udelay(10);
	}
	return atomic_read(v) >= want;
}

static void smp_test_all_online(struct kunit *test)
{
	KUNIT_EXPECT_GE(test, num_online_cpus(), 1);
	KUNIT_EXPECT_EQ(test, num_online_cpus(), num_possible_cpus());
	KUNIT_EXPECT_TRUE(test, cpu_online(0));
	KUNIT_EXPECT_EQ(test, smp_processor_id(), 0);
	KUNIT_EXPECT_FALSE(test, irqs_disabled());
	kunit_info(test, "%u CPUs online", num_online_cpus());
}

/*
 * The keys of <linux/cpus_alone.h> (smp_call_mask()'s among them) are on
 * exactly when this CPU is alone, as boot left them (one_cpu: on); the
 * cross calls that use them reach every online CPU either way.
 */
static void smp_test_alone_keys(struct kunit *test)
{
	bool alone = num_online_cpus() == 1;
	struct static_key *key;
	unsigned int i;

	KUNIT_EXPECT_GE(test, cpus_alone_keys_count(), 2U);
	for (i = 0; (key = cpus_alone_key(i)); i++)
		KUNIT_EXPECT_EQ_MSG(test, static_key_enabled(key), alone,
				    "key %u (%pS)", i, key);
	smp_test_reset();
	on_each_cpu(smp_test_hit, NULL, 1);
	KUNIT_EXPECT_EQ(test, smp_test_sum(&smp_test_hits), num_online_cpus());
}

static void smp_test_on_each_cpu(struct kunit *test)
{
	unsigned int cpu;

	smp_test_reset();
	on_each_cpu(smp_test_hit, NULL, 1);
	for_each_possible_cpu(cpu)
		KUNIT_EXPECT_EQ_MSG(test, per_cpu(smp_test_hits, cpu),
				    cpu_online(cpu) ? 1 : 0, "CPU%u", cpu);
	KUNIT_EXPECT_EQ(test, smp_test_sum(&smp_test_hits), num_online_cpus());
	KUNIT_EXPECT_EQ(test, smp_test_sum(&smp_test_irqs_on), 0);
	KUNIT_EXPECT_FALSE(test, irqs_disabled());
}

static void smp_test_call_single(struct kunit *test)
{
	unsigned int cpu;
	int ret;

	for_each_online_cpu(cpu) {
		int where = -1;

		ret = smp_call_function_single(cpu, smp_test_record_cpu, &where,
					       1);
		KUNIT_EXPECT_EQ(test, ret, 0);
		KUNIT_EXPECT_EQ(test, where, cpu);
	}
	/* To itself: run directly, interrupts disabled, even with wait=0. */
	smp_test_reset();
	ret = smp_call_function_single(smp_processor_id(), smp_test_hit, NULL,
				       0);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, this_cpu_read(smp_test_hits), 1);
	KUNIT_EXPECT_EQ(test, smp_test_sum(&smp_test_irqs_on), 0);
	KUNIT_EXPECT_FALSE(test, irqs_disabled());
	/* Not a CPU: nothing runs. */
	ret = smp_call_function_single(NR_CPUS, smp_test_hit, NULL, 1);
	KUNIT_EXPECT_EQ(test, ret, -ENXIO);
	ret = smp_call_function_single(-1, smp_test_hit, NULL, 1);
	KUNIT_EXPECT_EQ(test, ret, -ENXIO);
	KUNIT_EXPECT_EQ(test, smp_test_sum(&smp_test_hits), 1);
}

static void smp_test_call_function_skips_self(struct kunit *test)
{
	unsigned int this = smp_processor_id(), other = smp_test_other_cpu();
	unsigned int cpu;
	struct cpumask mask;

	smp_test_reset();
	smp_call_function(smp_test_hit, NULL, 1);
	for_each_online_cpu(cpu)
		KUNIT_EXPECT_EQ_MSG(test, per_cpu(smp_test_hits, cpu),
				    cpu == this ? 0 : 1, "CPU%u", cpu);
	KUNIT_EXPECT_EQ(test, smp_test_sum(&smp_test_hits),
			num_online_cpus() - 1);
	/* _many: the mask's CPUs only, and never this one. */
	smp_test_reset();
	cpumask_clear(&mask);
	cpumask_set_cpu(this, &mask);
	cpumask_set_cpu(other, &mask);
	smp_call_function_many(&mask, smp_test_hit, NULL, 1);
	KUNIT_EXPECT_EQ(test, per_cpu(smp_test_hits, this), 0);
	KUNIT_EXPECT_EQ(test, smp_test_sum(&smp_test_hits), other != this);
	KUNIT_EXPECT_EQ(test, smp_test_sum(&smp_test_irqs_on), 0);
}

static atomic_t smp_test_slow_done;

static void smp_test_slow(void *info)
{
	udelay(SMP_TEST_SLOW_US);
	atomic_inc(&smp_test_slow_done);
}

/* wait=1: every func has returned when the call does. */
static void smp_test_wait(struct kunit *test)
{
	unsigned int other = smp_test_other_cpu();

	atomic_set(&smp_test_slow_done, 0);
	on_each_cpu(smp_test_slow, NULL, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&smp_test_slow_done),
			num_online_cpus());
	atomic_set(&smp_test_slow_done, 0);
	smp_call_function(smp_test_slow, NULL, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&smp_test_slow_done),
			num_online_cpus() - 1);
	atomic_set(&smp_test_slow_done, 0);
	KUNIT_EXPECT_EQ(test,
			smp_call_function_single(other, smp_test_slow, NULL, 1),
			0);
	KUNIT_EXPECT_EQ(test, atomic_read(&smp_test_slow_done), 1);
}

static struct {
	bool open;
	atomic_t arrived, left, timeouts;
} smp_test_gate;

/* Waits, interrupts disabled, for the test to open the gate. */
static void smp_test_gate_func(void *info)
{
	unsigned long us;

	atomic_inc(&smp_test_gate.arrived);
	for (us = 0; !READ_ONCE(smp_test_gate.open); us += 10) {
		if (us >= SMP_TEST_TIMEOUT_MS * 1000UL) {
			atomic_inc(&smp_test_gate.timeouts);
			break;
		}
		udelay(10);
	}
	atomic_inc(&smp_test_gate.left);
}

/* wait=0 returns while the funcs still run: they wait for this CPU. */
static void smp_test_nowait(struct kunit *test)
{
	unsigned int others = num_online_cpus() - 1;

	memset(&smp_test_gate, 0, sizeof(smp_test_gate));
	smp_call_function(smp_test_gate_func, NULL, 0);
	KUNIT_EXPECT_TRUE(test,
			  smp_test_wait_for(&smp_test_gate.arrived, others));
	WRITE_ONCE(smp_test_gate.open, true);
	KUNIT_ASSERT_TRUE(test, smp_test_wait_for(&smp_test_gate.left, others));
	KUNIT_EXPECT_EQ(test, atomic_read(&smp_test_gate.timeouts), 0);
}

static void smp_test_percpu_write(void *info)
{
	this_cpu_write(smp_test_value, 1000 + smp_processor_id());
	this_cpu_inc(smp_test_value);
	this_cpu_write(smp_test_where, this_cpu_ptr(&smp_test_value));
	this_cpu_write(smp_test_gs_base, rdmsr(MSR_GS_BASE));
}

static void smp_test_percpu(struct kunit *test)
{
	unsigned int cpu, other;

	on_each_cpu(smp_test_percpu_write, NULL, 1);
	for_each_online_cpu(cpu) {
		unsigned long *v = per_cpu_ptr(&smp_test_value, cpu);

		KUNIT_EXPECT_EQ(test, *v, 1001 + cpu);
		KUNIT_EXPECT_PTR_EQ(test, per_cpu(smp_test_where, cpu), v);
		KUNIT_EXPECT_EQ(test, per_cpu(smp_test_gs_base, cpu),
				per_cpu_offset(cpu));
		KUNIT_EXPECT_EQ(test, per_cpu(cpu_number, cpu), cpu);
		for_each_online_cpu(other)
			if (other != cpu)
				KUNIT_EXPECT_PTR_NE(test, v,
						    &per_cpu(smp_test_value,
							     other));
	}
	/* No CPU works on the template. */
	KUNIT_EXPECT_PTR_NE(test, this_cpu_ptr(&smp_test_value),
			    &smp_test_value);
	KUNIT_EXPECT_EQ(test, this_cpu_read(smp_test_value),
			1001 + smp_processor_id());
	this_cpu_add(smp_test_value, 9);
	this_cpu_dec(smp_test_value);
	KUNIT_EXPECT_EQ(test, per_cpu(smp_test_value, smp_processor_id()),
			1009 + smp_processor_id());
}

static void smp_test_trylock_func(void *info)
{
	spinlock_t *lock = info;

	/* Held by the test's CPU: not ours, and not free. */
	if (spin_held_by_this_cpu(lock) || spin_trylock(lock))
		this_cpu_inc(smp_test_hits);
}

static void smp_test_spinlock_basics(struct kunit *test)
{
	static DEFINE_SPINLOCK(lock);
	unsigned long flags;

	KUNIT_EXPECT_TRUE(test, spin_trylock(&lock));
	KUNIT_EXPECT_TRUE(test, spin_held_by_this_cpu(&lock));
	KUNIT_EXPECT_FALSE(test, spin_trylock(&lock));
	smp_test_reset();
	smp_call_function(smp_test_trylock_func, &lock, 1);
	KUNIT_EXPECT_EQ(test, smp_test_sum(&smp_test_hits), 0);
	spin_unlock(&lock);
	KUNIT_EXPECT_FALSE(test, spin_is_locked(&lock));
	KUNIT_EXPECT_FALSE(test, spin_held_by_this_cpu(&lock));

	spin_lock_irqsave(&lock, flags);
	KUNIT_EXPECT_TRUE(test, irqs_disabled());
	spin_unlock_irqrestore(&lock, flags);
	KUNIT_EXPECT_FALSE(test, irqs_disabled());
	/* Nested in a section with interrupts off: they stay off. */
	local_irq_disable();
	spin_lock_irqsave(&lock, flags);
	spin_unlock_irqrestore(&lock, flags);
	KUNIT_EXPECT_TRUE(test, irqs_disabled());
	local_irq_enable();
	spin_lock_irq(&lock);
	KUNIT_EXPECT_TRUE(test, irqs_disabled());
	spin_unlock_irq(&lock);
	KUNIT_EXPECT_FALSE(test, irqs_disabled());
}

static struct {
	spinlock_t lock;
	unsigned long value;
	unsigned int per_cpu;
	atomic_t done;
} smp_test_counter;

static void smp_test_count(unsigned int n)
{
	unsigned long flags, v;
	unsigned int i;

	for (i = 0; i < n; i++) {
		spin_lock_irqsave(&smp_test_counter.lock, flags);
		/* A drawn-out read-modify-write: the lock keeps it whole. */
		v = READ_ONCE(smp_test_counter.value);
		cpu_relax();
		WRITE_ONCE(smp_test_counter.value, v + 1);
		spin_unlock_irqrestore(&smp_test_counter.lock, flags);
	}
}

static void smp_test_count_func(void *info)
{
	smp_test_count(smp_test_counter.per_cpu);
	atomic_inc(&smp_test_counter.done);
}

/* Every CPU adds to one counter under a spinlock: the total is exact. */
static void smp_test_spinlock_counter(struct kunit *test)
{
	unsigned int n = num_online_cpus();
	unsigned long total;

	spin_lock_init(&smp_test_counter.lock);
	smp_test_counter.value = 0;
	smp_test_counter.per_cpu = SMP_TEST_INCREMENTS / n;
	atomic_set(&smp_test_counter.done, 0);
	smp_call_function(smp_test_count_func, NULL, 0);
	smp_test_count(SMP_TEST_INCREMENTS -
		       (n - 1) * smp_test_counter.per_cpu);
	KUNIT_ASSERT_TRUE(test,
			  smp_test_wait_for(&smp_test_counter.done, n - 1));
	total = READ_ONCE(smp_test_counter.value);
	KUNIT_EXPECT_EQ(test, total, SMP_TEST_INCREMENTS);
	KUNIT_EXPECT_FALSE(test, spin_is_locked(&smp_test_counter.lock));
}

static struct {
	bool call_self; /* one CPU: the outer func makes the inner call */
	bool flag; /* set by the inner func */
	bool outer_irqs_off, outer_timed_out;
	bool inner_nested, inner_irqs_off;
	int inner_cpu;
	atomic_t spinning, outer_done;
} smp_test_nest;

static void smp_test_inner(void *info)
{
	smp_test_nest.inner_cpu = smp_processor_id();
	smp_test_nest.inner_nested = atomic_read(&smp_test_nest.spinning);
	smp_test_nest.inner_irqs_off = irqs_disabled();
	WRITE_ONCE(smp_test_nest.flag, true);
}

/* Enables interrupts and spins until the inner func sets the flag. */
static void smp_test_outer(void *info)
{
	unsigned long us;

	smp_test_nest.outer_irqs_off = irqs_disabled();
	local_irq_enable();
	atomic_set(&smp_test_nest.spinning, 1);
	if (smp_test_nest.call_self)
		smp_call_function_single(smp_processor_id(), smp_test_inner,
					 NULL, 1);
	for (us = 0; !READ_ONCE(smp_test_nest.flag); us += 10) {
		if (us >= SMP_TEST_TIMEOUT_MS * 1000UL) {
			smp_test_nest.outer_timed_out = true;
			break;
		}
		udelay(10);
	}
	atomic_set(&smp_test_nest.spinning, 0);
	local_irq_disable();
	atomic_inc(&smp_test_nest.outer_done);
}

/*
 * A func that enabled interrupts keeps taking calls: the inner call, sent
 * to the same CPU while the outer func spins there, runs nested in it.
 */
static void smp_test_nested_call(struct kunit *test)
{
	unsigned int target = smp_test_other_cpu();
	bool spinning;

	memset(&smp_test_nest, 0, sizeof(smp_test_nest));
	smp_test_nest.call_self = target == smp_processor_id();
	smp_call_function_single(target, smp_test_outer, NULL, 0);
	if (!smp_test_nest.call_self) {
		spinning = smp_test_wait_for(&smp_test_nest.spinning, 1);
		KUNIT_ASSERT_TRUE(test, spinning);
		smp_call_function_single(target, smp_test_inner, NULL, 1);
		KUNIT_EXPECT_TRUE(test, READ_ONCE(smp_test_nest.flag));
	}
	KUNIT_ASSERT_TRUE(test,
			  smp_test_wait_for(&smp_test_nest.outer_done, 1));
	KUNIT_EXPECT_FALSE(test, smp_test_nest.outer_timed_out);
	KUNIT_EXPECT_TRUE(test, smp_test_nest.outer_irqs_off);
	KUNIT_EXPECT_EQ(test, smp_test_nest.inner_cpu, target);
	KUNIT_EXPECT_TRUE(test, smp_test_nest.inner_nested);
	KUNIT_EXPECT_TRUE(test, smp_test_nest.inner_irqs_off);
}

static struct {
	unsigned int caller;
	int back_cpu;
	atomic_t started, done;
} smp_test_cross;

/* Interrupts off: calls the test's CPU, which is calling this one. */
static void smp_test_call_back(void *info)
{
	int where = -1;

	atomic_inc(&smp_test_cross.started);
	smp_call_function_single(smp_test_cross.caller, smp_test_record_cpu,
				 &where, 1);
	smp_test_cross.back_cpu = where;
	atomic_inc(&smp_test_cross.done);
}

/* Two CPUs wait for each other with interrupts disabled: both finish. */
static void smp_test_crossing_calls(struct kunit *test)
{
	unsigned int this = smp_processor_id(), target = smp_test_other_cpu();
	unsigned long flags;
	int where = -1;
	bool started;

	memset(&smp_test_cross, 0, sizeof(smp_test_cross));
	smp_test_cross.caller = this;
	local_irq_save(flags);
	smp_call_function_single(target, smp_test_call_back, NULL, 0);
	started = smp_test_wait_for(&smp_test_cross.started, 1);
	smp_call_function_single(target, smp_test_record_cpu, &where, 1);
	local_irq_restore(flags);
	KUNIT_EXPECT_TRUE(test, started);
	KUNIT_ASSERT_TRUE(test, smp_test_wait_for(&smp_test_cross.done, 1));
	KUNIT_EXPECT_EQ(test, where, target);
	KUNIT_EXPECT_EQ(test, smp_test_cross.back_cpu, this);
}

static atomic_t smp_test_all_done;

static void smp_test_all_to_all_func(void *info)
{
	unsigned int i;

	for (i = 0; i < SMP_TEST_ROUNDS; i++)
		on_each_cpu(smp_test_hit, NULL, 1);
	atomic_inc(&smp_test_all_done);
}

/* Every CPU calls every CPU at once, interrupts off, waiting each time. */
static void smp_test_all_to_all(struct kunit *test)
{
	unsigned int n = num_online_cpus(), cpu;
	unsigned long flags;

	smp_test_reset();
	atomic_set(&smp_test_all_done, 0);
	smp_call_function(smp_test_all_to_all_func, NULL, 0);
	local_irq_save(flags);
	smp_test_all_to_all_func(NULL);
	local_irq_restore(flags);
	KUNIT_ASSERT_TRUE(test, smp_test_wait_for(&smp_test_all_done, n));
	for_each_online_cpu(cpu)
		KUNIT_EXPECT_EQ_MSG(test, per_cpu(smp_test_hits, cpu),
				    n * SMP_TEST_ROUNDS, "CPU%u", cpu);
	KUNIT_EXPECT_EQ(test, smp_test_sum(&smp_test_irqs_on), 0);
}

static struct {
	bool stop;
	atomic_t started, finished;
} smp_test_busy;

/* Loops, interrupts enabled, until told to stop: calls come in nested. */
static void smp_test_busy_func(void *info)
{
	atomic_inc(&smp_test_busy.started);
	local_irq_enable();
	while (!READ_ONCE(smp_test_busy.stop))
		cpu_relax();
	local_irq_disable();
	atomic_inc(&smp_test_busy.finished);
}

/*
 * The other CPUs run funcs that do not return until told, and calls follow
 * at once, so that they may be queued behind a busy func before its CPU
 * took the first IPI: the calls must come through all the same.
 */
static void smp_test_calls_into_busy_cpus(struct kunit *test)
{
	unsigned int i, cpu, others = num_online_cpus() - 1;

	smp_test_reset();
	memset(&smp_test_busy, 0, sizeof(smp_test_busy));
	smp_call_function(smp_test_busy_func, NULL, 0);
	for (i = 0; i < SMP_TEST_ROUNDS; i++)
		on_each_cpu(smp_test_hit, NULL, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&smp_test_busy.started), others);
	WRITE_ONCE(smp_test_busy.stop, true);
	KUNIT_EXPECT_TRUE(test,
			  smp_test_wait_for(&smp_test_busy.finished, others));
	for_each_online_cpu(cpu)
		KUNIT_EXPECT_EQ_MSG(test, per_cpu(smp_test_hits, cpu),
				    SMP_TEST_ROUNDS, "CPU%u", cpu);
	KUNIT_EXPECT_EQ(test, smp_test_sum(&smp_test_irqs_on), 0);
}

/* One IPI per other CPU and call; none for a call to this CPU. */
static void smp_test_ipi_stats(struct kunit *test)
{
	struct smp_stats before = smp_stats;
	unsigned long others = num_online_cpus() - 1;

	smp_call_function(smp_test_hit, NULL, 1);
	KUNIT_EXPECT_EQ(test, smp_stats.ipis_sent, before.ipis_sent + others);
	KUNIT_EXPECT_EQ(test, smp_stats.calls, before.calls + 1);
	on_each_cpu(smp_test_hit, NULL, 1);
	KUNIT_EXPECT_EQ(test, smp_stats.ipis_sent,
			before.ipis_sent + 2 * others);
	smp_call_function_single(smp_processor_id(), smp_test_hit, NULL, 1);
	KUNIT_EXPECT_EQ(test, smp_stats.ipis_sent,
			before.ipis_sent + 2 * others);
	KUNIT_EXPECT_EQ(test, smp_stats.calls, before.calls + 3);
	if (others)
		KUNIT_EXPECT_GT(test, smp_stats.ipis_sent, before.ipis_sent);
}

static struct kunit_case smp_test_cases[] = {
	KUNIT_CASE(smp_test_all_online),
	KUNIT_CASE(smp_test_on_each_cpu),
	KUNIT_CASE(smp_test_alone_keys),
	KUNIT_CASE(smp_test_call_single),
	KUNIT_CASE(smp_test_call_function_skips_self),
	KUNIT_CASE(smp_test_wait),
	KUNIT_CASE(smp_test_nowait),
	KUNIT_CASE(smp_test_percpu),
	KUNIT_CASE(smp_test_spinlock_basics),
	KUNIT_CASE(smp_test_spinlock_counter),
	KUNIT_CASE(smp_test_nested_call),
	KUNIT_CASE(smp_test_crossing_calls),
	KUNIT_CASE(smp_test_all_to_all),
	KUNIT_CASE(smp_test_calls_into_busy_cpus),
	KUNIT_CASE(smp_test_ipi_stats),
	{}
};

static struct kunit_suite smp_test_suite = {
	.name = "smp",
	.test_cases = smp_test_cases,
};
kunit_test_suite(smp_test_suite);
