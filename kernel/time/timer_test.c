// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the tick, jiffies, ktime_get_ns() and timers, on every online
 * CPU (booted with one CPU, the case that needs two skips).
 *
 * Time under QEMU's TCG on a loaded host is noisy: a virtual CPU may not
 * run for milliseconds, and the ticks it misses meanwhile merge into one.
 * So rates are checked within wide bounds (20% to 200% of the expected
 * count; a dead tick gives 0, a wrong calibration a factor of 10), and
 * the best of a few windows counts, since noise only loses ticks. What is
 * exact is checked exactly: a timer never runs before its expiry, runs
 * once, on its CPU, and the wheel's placement. Every wait is bounded by
 * TT_TIMEOUT_MS of TSC time and fails the case instead of hanging.
 *
 * Whatever a callback touches is static or in memory that outlives it:
 * every case disarms its timers with del_timer_sync() before it returns.
 */
#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/irqflags.h>
#include <linux/jiffies.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/tick.h>
#include <linux/timekeeping.h>
#include <linux/timer.h>
#include <linux/timer_wheel.h>
#include <linux/timex.h>
#include <asm/processor.h>
#include <asm/tsc.h>
#include <kunit/test.h>

#define TT_TIMEOUT_MS 5000
#define TT_WINDOW_MS 50
#define TT_TRIES 3
#define TT_MAX_TRIES 10
#define TT_MANY 10000
#define TT_MANY_SPAN_MS 500
#define TT_SPIN_MS 20
#define TT_LAG_TICKS 3

/* One timer and what its callback saw. */
struct tt_timer {
	struct timer_list timer;
	int cpu; /* where it should run */
	atomic_t fired;
	int fired_cpu;
	unsigned long fired_jiffies;
	u64 fired_ns;
	bool irqs_off;
};

static atomic_t tt_total_fired;
static u64 tt_rand_state = 0x2545f4914f6cdd1dULL;

/* xorshift64: reproducible pseudo-random numbers. */
static u64 tt_rand(void)
{
	tt_rand_state ^= tt_rand_state << 13;
	tt_rand_state ^= tt_rand_state >> 7;
	tt_rand_state ^= tt_rand_state << 17;
	return tt_rand_state;
}

static u64 tt_ms_to_tsc(unsigned int ms)
{
	return (u64)tsc_khz * ms;
}

static void tt_spin_ms(unsigned int ms)
{
	u64 start = get_cycles();

	while (get_cycles() - start < tt_ms_to_tsc(ms))
		cpu_relax();
}

/* Spins until *v >= want or TT_TIMEOUT_MS pass; true if reached. */
static bool tt_wait_atomic(atomic_t *v, int want)
{
	u64 start = get_cycles();

	while (atomic_read_acquire(v) < want) {
		if (get_cycles() - start > tt_ms_to_tsc(TT_TIMEOUT_MS))
			return atomic_read_acquire(v) >= want;
		cpu_relax();
	}
	return true;
}

/* Spins until jiffies reach j or TT_TIMEOUT_MS pass; true if reached. */
static bool tt_wait_jiffies(unsigned long j)
{
	u64 start = get_cycles();

	while (time_before(jiffies, j)) {
		if (get_cycles() - start > tt_ms_to_tsc(TT_TIMEOUT_MS))
			return false;
		cpu_relax();
	}
	return true;
}

static void tt_need_tick(struct kunit *test)
{
	if (!tick_enabled())
		kunit_skip(test, "tick=off: no tick");
}

/* Another online CPU (the highest numbered), or this one if alone. */
static unsigned int tt_other_cpu(void)
{
	unsigned int cpu, other = smp_processor_id();

	for_each_online_cpu(cpu)
		if (cpu != smp_processor_id())
			other = cpu;
	return other;
}

static void tt_record(struct timer_list *t)
{
	struct tt_timer *tt = from_timer(tt, t, timer);

	tt->fired_cpu = smp_processor_id();
	tt->fired_jiffies = jiffies;
	tt->fired_ns = ktime_get_ns();
	tt->irqs_off = irqs_disabled();
	atomic_add_return(1, &tt->fired); /* ordered after the fields */
	atomic_inc(&tt_total_fired);
}

static void tt_init(struct tt_timer *tt, void (*fn)(struct timer_list *),
		    int cpu)
{
	memset(tt, 0, sizeof(*tt));
	timer_setup(&tt->timer, fn, 0);
	tt->cpu = cpu;
}

/* It ran once, on its CPU, interrupts enabled, not before its expiry. */
static void tt_expect_ran_once(struct kunit *test, struct tt_timer *tt)
{
	KUNIT_EXPECT_EQ(test, atomic_read_acquire(&tt->fired), 1);
	KUNIT_EXPECT_EQ(test, tt->fired_cpu, tt->cpu);
	KUNIT_EXPECT_FALSE(test, tt->irqs_off);
	KUNIT_EXPECT_TRUE(test,
			  time_after_eq(tt->fired_jiffies, tt->timer.expires));
	KUNIT_EXPECT_GE(test, tt->fired_ns,
			(u64)tt->timer.expires * TICK_NSEC);
	KUNIT_EXPECT_FALSE(test, timer_pending(&tt->timer));
}

/* Jiffies gained over ms of TSC time, the best of TT_TRIES windows. */
static unsigned long tt_jiffies_rate(unsigned int ms)
{
	unsigned long want = msecs_to_jiffies(ms), best = 0, d;
	int i;

	for (i = 0; i < TT_TRIES; i++) {
		unsigned long j0 = jiffies;

		tt_spin_ms(ms);
		d = jiffies - j0;
		/* Closest to the expected count wins. */
		if (!i || (d > want ? d - want : want - d) <
				  (best > want ? best - want : want - best))
			best = d;
	}
	return best;
}

static void timer_test_jiffies_hz(struct kunit *test)
{
	unsigned long want = msecs_to_jiffies(TT_WINDOW_MS), got;

	tt_need_tick(test);
	got = tt_jiffies_rate(TT_WINDOW_MS);
	KUNIT_EXPECT_GE(test, got, want / 5);
	KUNIT_EXPECT_LE(test, got, 2 * want);
	kunit_info(test, "%lu jiffies in %u ms of TSC time (HZ=%d, expected %lu)",
		   got, TT_WINDOW_MS, HZ, want);
}

/* Each online CPU's ticks over ms of TSC time, in counts[]. */
static void tt_tick_counts(unsigned long *counts, unsigned int ms)
{
	unsigned int cpu;

	for_each_online_cpu(cpu)
		counts[cpu] = READ_ONCE(per_cpu(tick_count, cpu));
	tt_spin_ms(ms);
	for_each_online_cpu(cpu)
		counts[cpu] = READ_ONCE(per_cpu(tick_count, cpu)) - counts[cpu];
}

/*
 * Every CPU ticks, none faster than twice HZ. This CPU, which spins (the
 * others halt, and may wake late), ticks at least 20% of HZ in one of
 * the windows: TT_TRIES of them, or up to TT_MAX_TRIES until it does.
 */
static void timer_test_every_cpu_ticks(struct kunit *test)
{
	unsigned long want = msecs_to_jiffies(TT_WINDOW_MS);
	unsigned long counts[NR_CPUS], best[NR_CPUS] = { 0 };
	unsigned int cpu, this = smp_processor_id();
	int i;

	tt_need_tick(test);
	for (i = 0; i < TT_TRIES ||
		    (i < TT_MAX_TRIES && best[this] < want / 5); i++) {
		tt_tick_counts(counts, TT_WINDOW_MS);
		for_each_online_cpu(cpu) {
			KUNIT_EXPECT_LE_MSG(test, counts[cpu], 2 * want + 2,
					    "CPU%u", cpu);
			best[cpu] = max(best[cpu], counts[cpu]);
		}
	}
	for_each_online_cpu(cpu) {
		KUNIT_EXPECT_GE_MSG(test, best[cpu], 1, "CPU%u", cpu);
		kunit_info(test, "CPU%u: %lu ticks in %u ms (best of %d)", cpu,
			   best[cpu], TT_WINDOW_MS, i);
	}
	KUNIT_EXPECT_GE(test, best[this], want / 5);
}

static void timer_test_time_after_wrap(struct kunit *test)
{
	unsigned long a = ULONG_MAX - 5, b = a + 10, mid = ULONG_MAX;
	u64 a64 = ~0ULL - 5, b64 = a64 + 10;

	KUNIT_EXPECT_EQ(test, b, 4);
	KUNIT_EXPECT_TRUE(test, time_after(b, a));
	KUNIT_EXPECT_FALSE(test, time_after(a, b));
	KUNIT_EXPECT_TRUE(test, time_before(a, b));
	KUNIT_EXPECT_FALSE(test, time_before(b, a));
	KUNIT_EXPECT_FALSE(test, time_after(a, a));
	KUNIT_EXPECT_FALSE(test, time_before(a, a));
	KUNIT_EXPECT_TRUE(test, time_after_eq(a, a));
	KUNIT_EXPECT_TRUE(test, time_before_eq(a, a));
	KUNIT_EXPECT_TRUE(test, time_after_eq(b, a));
	KUNIT_EXPECT_FALSE(test, time_after_eq(a, b));
	KUNIT_EXPECT_TRUE(test, time_before_eq(a, b));
	KUNIT_EXPECT_TRUE(test, time_in_range(mid, a, b));
	KUNIT_EXPECT_TRUE(test, time_in_range(a, a, b));
	KUNIT_EXPECT_TRUE(test, time_in_range(b, a, b));
	KUNIT_EXPECT_FALSE(test, time_in_range(b + 1, a, b));
	KUNIT_EXPECT_FALSE(test, time_in_range(a - 1, a, b));
	KUNIT_EXPECT_TRUE(test, time_in_range_open(a, a, b));
	KUNIT_EXPECT_FALSE(test, time_in_range_open(b, a, b));
	KUNIT_EXPECT_TRUE(test, time_after64(b64, a64));
	KUNIT_EXPECT_TRUE(test, time_before64(a64, b64));
	KUNIT_EXPECT_TRUE(test, time_after_eq64(a64, a64));
	KUNIT_EXPECT_TRUE(test, time_before_eq64(b64, b64));
	KUNIT_EXPECT_TRUE(test, time_in_range64(~0ULL, a64, b64));
	/* Half the range apart is the limit of what can be told apart. */
	KUNIT_EXPECT_TRUE(test, time_after(a + LONG_MAX, a));
	KUNIT_EXPECT_TRUE(test, time_before(a + LONG_MAX + 1, a));
}

static void timer_test_conversions(struct kunit *test)
{
	unsigned int ms;

	KUNIT_EXPECT_EQ(test, msecs_to_jiffies(0), 0);
	KUNIT_EXPECT_EQ(test, msecs_to_jiffies(1), 1); /* rounded up */
	KUNIT_EXPECT_EQ(test, msecs_to_jiffies(1000), HZ);
	KUNIT_EXPECT_EQ(test, msecs_to_jiffies(-1), MAX_JIFFY_OFFSET);
	KUNIT_EXPECT_EQ(test, usecs_to_jiffies(0), 0);
	KUNIT_EXPECT_EQ(test, usecs_to_jiffies(1), 1);
	KUNIT_EXPECT_EQ(test, usecs_to_jiffies(1000000), HZ);
	KUNIT_EXPECT_EQ(test, usecs_to_jiffies(-1), MAX_JIFFY_OFFSET);
	KUNIT_EXPECT_EQ(test, jiffies_to_msecs(HZ), 1000);
	KUNIT_EXPECT_EQ(test, jiffies_to_msecs(10 * HZ), 10000);
	KUNIT_EXPECT_EQ(test, jiffies_to_usecs(HZ), 1000000);
	/* A timeout of m ms is never shorter than m ms. */
	for (ms = 0; ms < 3000; ms += 7)
		KUNIT_EXPECT_GE(test, jiffies_to_msecs(msecs_to_jiffies(ms)),
				ms);
	if (HZ == 1000)
		KUNIT_EXPECT_EQ(test, msecs_to_jiffies(1234), 1234);
	KUNIT_EXPECT_EQ(test, TICK_NSEC, (NSEC_PER_SEC + HZ / 2) / HZ);
}

/* ktime_get_ns() never goes back on a CPU; counts failures in *info. */
static void tt_ktime_monotonic(void *info)
{
	u64 prev = ktime_get_ns(), now;
	int i;

	for (i = 0; i < 10000; i++) {
		now = ktime_get_ns();
		if (now < prev)
			atomic_inc(info);
		prev = now;
	}
}

/*
 * jiffies follow the clock: jiffies * TICK_NSEC is never ahead of
 * ktime_get_ns(), and behind by a tick or so at best (the tick's delay,
 * noisy, only adds to that).
 */
static void timer_test_ktime(struct kunit *test)
{
	static atomic_t backwards;
	u64 now, lag, best_lag = ~0ULL, t0, t1;
	unsigned long j;
	int i;

	atomic_set(&backwards, 0);
	on_each_cpu(tt_ktime_monotonic, &backwards, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&backwards), 0);
	t0 = ktime_get_ns();
	tt_spin_ms(TT_WINDOW_MS);
	t1 = ktime_get_ns();
	KUNIT_EXPECT_GE(test, t1 - t0, (u64)TT_WINDOW_MS * NSEC_PER_MSEC);
	KUNIT_EXPECT_LT(test, t1 - t0, (u64)TT_TIMEOUT_MS * NSEC_PER_MSEC);
	tt_need_tick(test);
	for (i = 0; i < 1000; i++) {
		j = jiffies;
		now = ktime_get_ns();
		KUNIT_EXPECT_LE(test, (u64)j * TICK_NSEC, now);
		lag = now - (u64)j * TICK_NSEC;
		best_lag = min(best_lag, lag);
		udelay(50);
	}
	KUNIT_EXPECT_LT(test, best_lag, (u64)TT_LAG_TICKS * TICK_NSEC);
	kunit_info(test, "ktime %llu ns, jiffies %lu, best lag %llu ns",
		   now, j, best_lag);
}

/* One placement: run_at never early, on the level's grid, first round. */
static void tt_check_place(struct kunit *test, unsigned long clk,
			   unsigned long delta)
{
	unsigned long e = clk + delta, run_at, g, first;
	unsigned int lvl;

	run_at = timer_wheel_run_at(clk, e, &lvl);
	g = WHEEL_GRAN(lvl);
	first = ALIGN(clk, g); /* the level's next run */
	KUNIT_EXPECT_EQ_MSG(test, run_at % g, 0, "clk %lu e %lu", clk, e);
	KUNIT_EXPECT_GE_MSG(test, run_at, first, "clk %lu e %lu", clk, e);
	/* The same slot's previous round came before clk. */
	KUNIT_EXPECT_LT_MSG(test, run_at - first, WHEEL_SLOTS * g,
			    "clk %lu e %lu", clk, e);
	if (lvl == WHEEL_LEVELS - 1 && run_at < e)
		return; /* beyond the wheel: parked, queued again */
	KUNIT_EXPECT_GE_MSG(test, run_at, e, "clk %lu e %lu", clk, e);
	KUNIT_EXPECT_LT_MSG(test, run_at - e, g, "clk %lu e %lu", clk, e);
	if (delta < WHEEL_SLOTS)
		KUNIT_EXPECT_EQ_MSG(test, lvl, 0, "clk %lu e %lu", clk, e);
	else
		KUNIT_EXPECT_LE_MSG(test, (run_at - e) * 63, delta * 8,
				    "clk %lu e %lu", clk, e);
}

static void timer_test_wheel_placement(struct kunit *test)
{
	static const unsigned long clks[] = { 0, 1, 7, 8, 63, 64, 65, 511,
					      512, 4095, 4096, 123456789 };
	unsigned long reach = WHEEL_SLOTS * WHEEL_GRAN(WHEEL_LEVELS - 1);
	unsigned long d, run_at;
	unsigned int i, lvl;

	for (i = 0; i < ARRAY_SIZE(clks); i++)
		for (d = 0; d < 5000; d++)
			tt_check_place(test, clks[i], d);
	for (i = 0; i < 100000; i++) {
		unsigned long clk = tt_rand() >> 24;

		/* Delays of every size below 2^62. */
		tt_check_place(test, clk, tt_rand() >> (2 + tt_rand() % 62));
	}
	/* Past expiries run at the next jiffy. */
	KUNIT_EXPECT_EQ(test, timer_wheel_run_at(1000, 990, &lvl), 1000);
	KUNIT_EXPECT_EQ(test, lvl, 0);
	/* Beyond the reach: parked on the last level, before the expiry. */
	run_at = timer_wheel_run_at(0, 4 * reach, &lvl);
	KUNIT_EXPECT_EQ(test, lvl, WHEEL_LEVELS - 1);
	KUNIT_EXPECT_LT(test, run_at, 4 * reach);
	KUNIT_EXPECT_GE(test, run_at, reach - WHEEL_GRAN(WHEEL_LEVELS - 1));
}

static void tt_arm_here(void *info)
{
	struct tt_timer *tt = info;

	mod_timer(&tt->timer, jiffies + 3);
}

/*
 * On every CPU: add_timer_on() from here, then mod_timer() run there.
 * Each runs once, there, not early.
 */
static void timer_test_fires_once_on_its_cpu(struct kunit *test)
{
	static struct tt_timer tt;
	unsigned int cpu, how;

	tt_need_tick(test);
	for_each_online_cpu(cpu) {
		for (how = 0; how < 2; how++) {
			tt_init(&tt, tt_record, cpu);
			if (how) {
				smp_call_function_single(cpu, tt_arm_here, &tt,
							 1);
			} else {
				tt.timer.expires = jiffies + 3;
				add_timer_on(&tt.timer, cpu);
			}
			KUNIT_EXPECT_TRUE(test, tt_wait_atomic(&tt.fired, 1));
			/* Nothing more comes, even jiffies later. */
			tt_wait_jiffies(jiffies + 5);
			del_timer_sync(&tt.timer);
			tt_expect_ran_once(test, &tt);
		}
	}
}

static void timer_test_static_timer_fn(struct timer_list *t);
static DEFINE_TIMER(tt_static_timer, timer_test_static_timer_fn);
static atomic_t tt_static_fired;

static void timer_test_static_timer_fn(struct timer_list *t)
{
	if (t == &tt_static_timer)
		atomic_inc(&tt_static_fired);
}

static void timer_test_define_timer(struct kunit *test)
{
	tt_need_tick(test);
	KUNIT_EXPECT_FALSE(test, timer_pending(&tt_static_timer));
	KUNIT_EXPECT_EQ(test, mod_timer(&tt_static_timer, jiffies + 2), 0);
	KUNIT_EXPECT_TRUE(test, tt_wait_atomic(&tt_static_fired, 1));
	del_timer_sync(&tt_static_timer);
	KUNIT_EXPECT_EQ(test, atomic_read(&tt_static_fired), 1);
}

/* mod_timer()'s and del_timer()'s return values, re-arming both ways. */
static void timer_test_mod_timer(struct kunit *test)
{
	static struct tt_timer tt;
	unsigned long j, flags;

	tt_need_tick(test);
	tt_init(&tt, tt_record, smp_processor_id());
	KUNIT_EXPECT_FALSE(test, timer_pending(&tt.timer));
	KUNIT_EXPECT_EQ(test, del_timer(&tt.timer), 0);
	KUNIT_EXPECT_EQ(test, mod_timer(&tt.timer, jiffies + 1000), 0);
	KUNIT_EXPECT_TRUE(test, timer_pending(&tt.timer));
	KUNIT_EXPECT_EQ(test, mod_timer(&tt.timer, jiffies + 2000), 1);
	KUNIT_EXPECT_EQ(test, mod_timer(&tt.timer, tt.timer.expires), 1);
	/*
	 * Sooner, then later again: the earlier expiry is gone. Interrupts
	 * off in between, or a late tick could run it at the first.
	 */
	local_irq_save(flags);
	j = jiffies;
	KUNIT_EXPECT_EQ(test, mod_timer(&tt.timer, j + 3), 1);
	KUNIT_EXPECT_EQ(test, mod_timer(&tt.timer, j + 30), 1);
	local_irq_restore(flags);
	KUNIT_EXPECT_TRUE(test, tt_wait_atomic(&tt.fired, 1));
	KUNIT_EXPECT_TRUE(test, time_after_eq(tt.fired_jiffies, j + 30));
	/* Ran: no longer pending, so the next arm returns 0. */
	KUNIT_EXPECT_FALSE(test, timer_pending(&tt.timer));
	KUNIT_EXPECT_EQ(test, del_timer(&tt.timer), 0);
	KUNIT_EXPECT_EQ(test, mod_timer(&tt.timer, jiffies + 1000), 0);
	KUNIT_EXPECT_EQ(test, del_timer(&tt.timer), 1);
	KUNIT_EXPECT_EQ(test, del_timer(&tt.timer), 0);
	KUNIT_EXPECT_EQ(test, del_timer_sync(&tt.timer), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&tt.fired), 1);
}

/* A pending timer deleted on any CPU never runs. */
static void timer_test_del_timer(struct kunit *test)
{
	static struct tt_timer tts[NR_CPUS];
	unsigned long j = jiffies, d = msecs_to_jiffies(100);
	unsigned int cpu;

	tt_need_tick(test);
	for_each_online_cpu(cpu) {
		tt_init(&tts[cpu], tt_record, cpu);
		tts[cpu].timer.expires = j + d;
		add_timer_on(&tts[cpu].timer, cpu);
	}
	for_each_online_cpu(cpu)
		KUNIT_EXPECT_EQ(test, del_timer(&tts[cpu].timer), 1);
	KUNIT_EXPECT_TRUE(test, tt_wait_jiffies(j + d + 10));
	for_each_online_cpu(cpu) {
		del_timer_sync(&tts[cpu].timer);
		KUNIT_EXPECT_EQ(test, atomic_read(&tts[cpu].fired), 0);
		KUNIT_EXPECT_FALSE(test, timer_pending(&tts[cpu].timer));
	}
}

static struct {
	struct tt_timer tt;
	atomic_t started, finished, timeouts;
	bool release;
} tt_slow;

/* Runs until released, then TT_SPIN_MS more (bounded either way). */
static void tt_slow_fn(struct timer_list *t)
{
	u64 start = get_cycles();

	atomic_set_release(&tt_slow.started, 1);
	while (!READ_ONCE(tt_slow.release)) {
		if (get_cycles() - start > tt_ms_to_tsc(TT_TIMEOUT_MS)) {
			atomic_inc(&tt_slow.timeouts);
			break;
		}
		cpu_relax();
	}
	tt_spin_ms(TT_SPIN_MS);
	atomic_set_release(&tt_slow.finished, 1);
	tt_record(t);
}

/* del_timer_sync() returns only once the callback on another CPU ended. */
static void timer_test_del_timer_sync_waits(struct kunit *test)
{
	unsigned int other = tt_other_cpu();

	tt_need_tick(test);
	if (other == smp_processor_id())
		kunit_skip(test, "needs a second CPU");
	memset(&tt_slow, 0, sizeof(tt_slow));
	tt_init(&tt_slow.tt, tt_slow_fn, other);
	tt_slow.tt.timer.expires = jiffies + 1;
	add_timer_on(&tt_slow.tt.timer, other);
	KUNIT_EXPECT_TRUE(test, tt_wait_atomic(&tt_slow.started, 1));
	/* Running, no longer pending: */
	KUNIT_EXPECT_EQ(test, try_to_del_timer_sync(&tt_slow.tt.timer), -1);
	KUNIT_EXPECT_EQ(test, del_timer(&tt_slow.tt.timer), 0);
	KUNIT_EXPECT_FALSE(test, timer_pending(&tt_slow.tt.timer));
	WRITE_ONCE(tt_slow.release, true);
	KUNIT_EXPECT_EQ(test, del_timer_sync(&tt_slow.tt.timer), 0);
	KUNIT_EXPECT_EQ(test, atomic_read_acquire(&tt_slow.finished), 1);
	KUNIT_EXPECT_EQ(test, try_to_del_timer_sync(&tt_slow.tt.timer), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&tt_slow.timeouts), 0);
	tt_expect_ran_once(test, &tt_slow.tt);
}

static struct tt_timer tt_rearm;

static void tt_rearm_fn(struct timer_list *t)
{
	tt_record(t);
	mod_timer(t, jiffies + 1);
}

/* A callback that re-arms itself is stopped for good by del_timer_sync(). */
static void timer_test_del_timer_sync_rearming(struct kunit *test)
{
	int n;

	tt_need_tick(test);
	tt_init(&tt_rearm, tt_rearm_fn, tt_other_cpu());
	tt_rearm.timer.expires = jiffies + 1;
	add_timer_on(&tt_rearm.timer, tt_rearm.cpu);
	KUNIT_EXPECT_TRUE(test, tt_wait_atomic(&tt_rearm.fired, 5));
	KUNIT_EXPECT_EQ(test, tt_rearm.fired_cpu, tt_rearm.cpu);
	KUNIT_EXPECT_LE(test, del_timer_sync(&tt_rearm.timer), 1);
	KUNIT_EXPECT_FALSE(test, timer_pending(&tt_rearm.timer));
	n = atomic_read(&tt_rearm.fired);
	tt_wait_jiffies(jiffies + 10);
	KUNIT_EXPECT_EQ(test, atomic_read(&tt_rearm.fired), n);
}

static struct {
	struct tt_timer tt;
	int ret[2];
} tt_self;

/* Re-arms itself, then calls del_timer_sync() on itself: a misuse. */
static void tt_self_fn(struct timer_list *t)
{
	int n = atomic_read(&tt_self.tt.fired);

	mod_timer(t, jiffies + 1000);
	if (n < 2)
		tt_self.ret[n] = del_timer_sync(t);
	tt_record(t);
}

/* del_timer_sync() from the timer's own callback warns once, no hang. */
static void timer_test_del_timer_sync_self(struct kunit *test)
{
	unsigned long warns = nr_warnings;

	tt_need_tick(test);
	memset(&tt_self, 0, sizeof(tt_self));
	tt_init(&tt_self.tt, tt_self_fn, tt_other_cpu());
	tt_self.tt.timer.expires = jiffies + 1;
	add_timer_on(&tt_self.tt.timer, tt_self.tt.cpu);
	KUNIT_EXPECT_TRUE(test, tt_wait_atomic(&tt_self.tt.fired, 1));
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	KUNIT_EXPECT_EQ(test, tt_self.ret[0], 1); /* disarmed its re-arm */
	KUNIT_EXPECT_FALSE(test, timer_pending(&tt_self.tt.timer));
	/* Again: no second warning. */
	tt_self.tt.timer.expires = jiffies + 1;
	add_timer_on(&tt_self.tt.timer, tt_self.tt.cpu);
	KUNIT_EXPECT_TRUE(test, tt_wait_atomic(&tt_self.tt.fired, 2));
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	KUNIT_EXPECT_EQ(test, tt_self.ret[1], 1);
	KUNIT_EXPECT_EQ(test, del_timer_sync(&tt_self.tt.timer), 0);
}

static DEFINE_PER_CPU(int, tt_depth);
static atomic_t tt_ctx_bad, tt_ctx_ran;
static unsigned long tt_ctx_ticks[NR_CPUS];

/*
 * Spins, interrupts enabled, until this CPU's next tick (TT_SPIN_MS at
 * most: QEMU may deliver ticks late on a loaded host). The tick comes in,
 * and runs no callback on top of this one.
 */
static void tt_ctx_fn(struct timer_list *t)
{
	struct tt_timer *tt = from_timer(tt, t, timer);
	unsigned long ticks = this_cpu_read(tick_count);
	u64 start = get_cycles();

	if (this_cpu_read(tt_depth) || irqs_disabled() ||
	    smp_processor_id() != tt->cpu)
		atomic_inc(&tt_ctx_bad);
	this_cpu_inc(tt_depth);
	while (this_cpu_read(tick_count) == ticks &&
	       get_cycles() - start < tt_ms_to_tsc(TT_SPIN_MS * 10))
		cpu_relax();
	this_cpu_dec(tt_depth);
	tt_ctx_ticks[tt->cpu] += this_cpu_read(tick_count) - ticks;
	atomic_inc(&tt_ctx_ran);
}

static void timer_test_callback_context(struct kunit *test)
{
	static struct tt_timer tts[NR_CPUS][3];
	unsigned long j = jiffies;
	unsigned int cpu, i, n = 0;

	tt_need_tick(test);
	atomic_set(&tt_ctx_bad, 0);
	atomic_set(&tt_ctx_ran, 0);
	for_each_online_cpu(cpu) {
		tt_ctx_ticks[cpu] = 0;
		for (i = 0; i < 3; i++, n++) {
			tt_init(&tts[cpu][i], tt_ctx_fn, cpu);
			tts[cpu][i].timer.expires = j + 2;
			add_timer_on(&tts[cpu][i].timer, cpu);
		}
	}
	KUNIT_EXPECT_TRUE(test, tt_wait_atomic(&tt_ctx_ran, n));
	for_each_online_cpu(cpu) {
		for (i = 0; i < 3; i++)
			del_timer_sync(&tts[cpu][i].timer);
		/* Interrupts were on in the callbacks: each saw a tick. */
		KUNIT_EXPECT_GE_MSG(test, tt_ctx_ticks[cpu], 3, "CPU%u", cpu);
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&tt_ctx_bad), 0);
}

/* n timers, in whole frames: tt_free() gives them back. */
static struct tt_timer *tt_alloc(unsigned int n, unsigned long *frames)
{
	phys_addr_t pa;

	*frames = DIV_ROUND_UP(n * sizeof(struct tt_timer), PAGE_SIZE);
	pa = alloc_frames(*frames);
	return pa ? __va(pa) : NULL;
}

static void tt_free(struct tt_timer *tts, unsigned int n,
		    unsigned long frames)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		del_timer_sync(&tts[i].timer);
	free_frames(__pa(tts), frames);
}

/* A random online CPU. */
static unsigned int tt_rand_cpu(void)
{
	unsigned int cpu, k = tt_rand() % num_online_cpus();

	for_each_online_cpu(cpu)
		if (!k--)
			return cpu;
	return smp_processor_id();
}

/* Arms n timers at random expiries (a few in the past), random CPUs. */
static void tt_arm_many(struct tt_timer *tts, unsigned int n,
			unsigned long *per_cpu)
{
	unsigned long j = jiffies, span = msecs_to_jiffies(TT_MANY_SPAN_MS);
	unsigned int i;

	for (i = 0; i < n; i++) {
		tt_init(&tts[i], tt_record, tt_rand_cpu());
		tts[i].timer.expires = j + tt_rand() % span - 5;
		add_timer_on(&tts[i].timer, tts[i].cpu);
		per_cpu[tts[i].cpu]++;
	}
}

/* Checks each of n timers ran once, right; returns the worst lateness. */
static unsigned long tt_check_many(struct kunit *test, struct tt_timer *tts,
				   unsigned int n)
{
	unsigned long late = 0;
	unsigned int i, bad = 0;

	for (i = 0; i < n; i++) {
		struct tt_timer *tt = &tts[i];

		if (atomic_read_acquire(&tt->fired) != 1 ||
		    tt->fired_cpu != tt->cpu || tt->irqs_off ||
		    time_before(tt->fired_jiffies, tt->timer.expires) ||
		    tt->fired_ns < (u64)tt->timer.expires * TICK_NSEC) {
			if (!bad++)
				tt_expect_ran_once(test, tt);
			continue;
		}
		late = max(late, tt->fired_jiffies - tt->timer.expires);
	}
	KUNIT_EXPECT_EQ(test, bad, 0);
	return late;
}

/* 10,000 timers at random expiries on random CPUs: each runs once, right. */
static void timer_test_many(struct kunit *test)
{
	unsigned long frames, armed[NR_CPUS] = { 0 }, before[NR_CPUS];
	struct tt_timer *tts;
	unsigned int cpu;

	tt_need_tick(test);
	tts = tt_alloc(TT_MANY, &frames);
	KUNIT_ASSERT_NOT_NULL(test, tts);
	for_each_online_cpu(cpu)
		before[cpu] = READ_ONCE(timer_cpu_stats(cpu)->expired);
	atomic_set(&tt_total_fired, 0);
	tt_arm_many(tts, TT_MANY, armed);
	KUNIT_EXPECT_TRUE(test, tt_wait_atomic(&tt_total_fired, TT_MANY));
	tt_wait_jiffies(jiffies + 20); /* any second run would come now */
	KUNIT_EXPECT_EQ(test, atomic_read(&tt_total_fired), TT_MANY);
	kunit_info(test, "worst lateness %lu jiffies (noise included)",
		   tt_check_many(test, tts, TT_MANY));
	for_each_online_cpu(cpu)
		KUNIT_EXPECT_EQ_MSG(test,
				    READ_ONCE(timer_cpu_stats(cpu)->expired) -
					    before[cpu],
				    armed[cpu], "CPU%u", cpu);
	tt_free(tts, TT_MANY, frames);
}

/*
 * This CPU's wheel work over TT_WINDOW_MS, as stats deltas. Its tick
 * alone writes them: with interrupts off, a snapshot is consistent.
 */
static void tt_wheel_work(struct timer_stats *d)
{
	const struct timer_stats *s = timer_cpu_stats(smp_processor_id());
	struct timer_stats a, b;
	unsigned long flags;

	local_irq_save(flags);
	a = *s;
	local_irq_restore(flags);
	tt_spin_ms(TT_WINDOW_MS);
	local_irq_save(flags);
	b = *s;
	local_irq_restore(flags);
	d->expired = b.expired - a.expired;
	d->requeued = b.requeued - a.requeued;
	d->slots_visited = b.slots_visited - a.slots_visited;
	d->jiffies_run = b.jiffies_run - a.jiffies_run;
}

/*
 * The tick's work is bounded by the jiffies it runs, whatever the number
 * of pending timers: a slot per jiffy, plus one for each coarser level
 * whose granularity divides it (at most 8/7 a jiffy, plus the levels).
 */
static void tt_expect_bounded(struct kunit *test, struct timer_stats *d,
			      const char *what)
{
	KUNIT_EXPECT_GE_MSG(test, d->jiffies_run, 1, "%s", what);
	KUNIT_EXPECT_LE_MSG(test, d->slots_visited,
			    d->jiffies_run * 8 / 7 + WHEEL_LEVELS, "%s", what);
	KUNIT_EXPECT_EQ_MSG(test, d->expired, 0, "%s", what);
	KUNIT_EXPECT_EQ_MSG(test, d->requeued, 0, "%s", what);
}

static void timer_test_tick_cost(struct kunit *test)
{
	unsigned int this = smp_processor_id(), i;
	unsigned long frames, far = jiffies + 1000000;
	struct timer_stats idle, busy;
	struct tt_timer *tts;

	tt_need_tick(test);
	tts = tt_alloc(TT_MANY, &frames);
	KUNIT_ASSERT_NOT_NULL(test, tts);
	tt_wheel_work(&idle);
	tt_expect_bounded(test, &idle, "no timer pending");
	for (i = 0; i < TT_MANY; i++) {
		tt_init(&tts[i], tt_record, this);
		mod_timer(&tts[i].timer, far + tt_rand() % 1000000);
	}
	tt_wheel_work(&busy);
	tt_expect_bounded(test, &busy, "10,000 pending");
	kunit_info(test, "slots visited per jiffy: %lu/%lu idle, %lu/%lu with %d timers pending",
		   idle.slots_visited, idle.jiffies_run, busy.slots_visited,
		   busy.jiffies_run, TT_MANY);
	for (i = 0; i < TT_MANY; i++)
		KUNIT_EXPECT_EQ(test, del_timer(&tts[i].timer), 1);
	tt_free(tts, TT_MANY, frames);
}

static struct kunit_case timer_test_cases[] = {
	KUNIT_CASE(timer_test_jiffies_hz),
	KUNIT_CASE(timer_test_every_cpu_ticks),
	KUNIT_CASE(timer_test_time_after_wrap),
	KUNIT_CASE(timer_test_conversions),
	KUNIT_CASE(timer_test_ktime),
	KUNIT_CASE(timer_test_wheel_placement),
	KUNIT_CASE(timer_test_fires_once_on_its_cpu),
	KUNIT_CASE(timer_test_define_timer),
	KUNIT_CASE(timer_test_mod_timer),
	KUNIT_CASE(timer_test_del_timer),
	KUNIT_CASE(timer_test_del_timer_sync_waits),
	KUNIT_CASE(timer_test_del_timer_sync_rearming),
	KUNIT_CASE(timer_test_del_timer_sync_self),
	KUNIT_CASE(timer_test_callback_context),
	KUNIT_CASE(timer_test_many),
	KUNIT_CASE(timer_test_tick_cost),
	{}
};

static struct kunit_suite timer_test_suite = {
	.name = "timer",
	.test_cases = timer_test_cases,
};
kunit_test_suite(timer_test_suite);
