// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "jump_label_ratelimit": deferred static keys. The patch
 * engine's batch counter shows when code changed: the last dec waits a
 * timeout, an inc within it patches nothing, a flush applies it now, a
 * timeout of 0 queues it at once, an unbalanced dec WARNs, and a storm of
 * inc/dec pairs patches at most once per window where a plain key patches
 * on (nearly) every pair. With CONFIG_JUMP_LABEL=n the decs are immediate
 * and nothing is patched: the same cases check the counts.
 */
#include <linux/kernel.h>
#include <linux/bug.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/jump_label_ratelimit.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/text-patching.h>
#include <linux/timekeeping.h>
#include <fixtures/static_key_sites.h>
#include <kunit/test.h>

#define JLR_WAIT_MS 5000
#define JLR_RL (HZ / 10)
#define JLR_STORM_RL (HZ / 50)
#define JLR_STORM_THREADS 4
#define JLR_STORM_PAIRS 10000
#define JLR_STORM_PACE 25 /* pairs between two msleep(1) */
/* A plain key patches on about half the pairs: 24 s for 10,000 (TCG),
 * so the normal case compares 1,000; the slow one the whole storm. */
#define JLR_PLAIN_PAIRS 1000

static DEFINE_STATIC_KEY_DEFERRED_FALSE(jlr_key, JLR_RL);
static DEFINE_STATIC_KEY_DEFERRED_FALSE(jlr_long, 100 * HZ);
static DEFINE_STATIC_KEY_DEFERRED_TRUE(jlr_zero, 0);
static DEFINE_STATIC_KEY_DEFERRED_FALSE(jlr_unbal, JLR_RL);
static DEFINE_STATIC_KEY_DEFERRED_FALSE(jlr_storm, JLR_STORM_RL);
static DEFINE_STATIC_KEY_FALSE(jlr_plain);
static struct static_key_deferred jlr_old;

STATIC_KEY_TEST_UNLIKELY(jlr_key_site, &jlr_key.key)
STATIC_KEY_TEST_UNLIKELY(jlr_long_site, &jlr_long.key)
STATIC_KEY_TEST_LIKELY(jlr_zero_site, &jlr_zero.key)
STATIC_KEY_TEST_UNLIKELY(jlr_storm_site, &jlr_storm.key)
STATIC_KEY_TEST_UNLIKELY(jlr_plain_site, &jlr_plain)

static const bool jlr_y = IS_ENABLED(CONFIG_JUMP_LABEL);

static unsigned long jlr_batches(void)
{
	return text_poke_get_stats().batches;
}

/* Waits (sleeping) until key's count is want or ms pass. */
static bool jlr_wait_count(struct static_key *key, int want, unsigned int ms)
{
	u64 deadline = ktime_get_ns() + (u64)ms * 1000000;

	while (static_key_count(key) != want) {
		if (ktime_get_ns() > deadline)
			return false;
		msleep(1);
	}
	return true;
}

/* enable -> deferred dec: still JMP, count 1 until the timeout; then NOP. */
static void jlr_test_last_dec_deferred(struct kunit *test)
{
	unsigned long b0 = jlr_batches(), t0;

	static_branch_deferred_inc(&jlr_key);
	KUNIT_EXPECT_EQ(test, jlr_key_site(), 1);
	KUNIT_EXPECT_EQ(test, jlr_batches(), b0 + jlr_y);
	t0 = jiffies;
	static_branch_slow_dec_deferred(&jlr_key);
	if (jlr_y) {
		KUNIT_EXPECT_EQ(test, static_key_count(&jlr_key.key.key), 1);
		KUNIT_EXPECT_EQ(test, jlr_key_site(), 1);
		KUNIT_EXPECT_EQ(test, jlr_batches(), b0 + 1);
	}
	KUNIT_ASSERT_TRUE(test,
			  jlr_wait_count(&jlr_key.key.key, 0, JLR_WAIT_MS));
	if (jlr_y)
		KUNIT_EXPECT_GE(test, (long)(jiffies - t0), (long)JLR_RL);
	static_key_deferred_flush(&jlr_key); /* the work's patching done */
	KUNIT_EXPECT_EQ(test, jlr_key_site(), 0);
	KUNIT_EXPECT_EQ(test, jlr_key_site_long(), 0);
	KUNIT_EXPECT_EQ(test, jlr_batches(), b0 + 2 * jlr_y);
}

/* A dec that leaves the count above 0 is immediate: no work queued. */
static void jlr_test_dec_above_one(struct kunit *test)
{
	unsigned long b0 = jlr_batches();

	static_branch_deferred_inc(&jlr_key);
	static_branch_deferred_inc(&jlr_key);
	static_branch_slow_dec_deferred(&jlr_key);
	KUNIT_EXPECT_EQ(test, static_key_count(&jlr_key.key.key), 1);
	KUNIT_EXPECT_FALSE(test, delayed_work_pending(&jlr_key.work));
	static_branch_slow_dec_deferred(&jlr_key);
	KUNIT_EXPECT_EQ(test, delayed_work_pending(&jlr_key.work), jlr_y);
	static_key_deferred_flush(&jlr_key);
	KUNIT_EXPECT_EQ(test, static_key_count(&jlr_key.key.key), 0);
	KUNIT_EXPECT_EQ(test, jlr_key_site(), 0);
	KUNIT_EXPECT_EQ(test, jlr_batches(), b0 + 2 * jlr_y);
}

/* An inc within the window counts from 1 again: no batch at all. */
static void jlr_test_inc_within_window(struct kunit *test)
{
	unsigned long b1;

	static_branch_deferred_inc(&jlr_key);
	static_branch_slow_dec_deferred(&jlr_key);
	b1 = jlr_batches();
	static_branch_deferred_inc(&jlr_key);
	KUNIT_EXPECT_EQ(test, jlr_key_site(), 1);
	if (jlr_y) {
		KUNIT_EXPECT_EQ(test, static_key_count(&jlr_key.key.key), 2);
		/* the work's dec: 2 -> 1, nothing to patch */
		KUNIT_EXPECT_TRUE(test, jlr_wait_count(&jlr_key.key.key, 1,
						       JLR_WAIT_MS));
		static_key_deferred_flush(&jlr_key);
		KUNIT_EXPECT_EQ(test, jlr_key_site(), 1);
		KUNIT_EXPECT_EQ(test, jlr_batches(), b1);
	}
	static_branch_slow_dec_deferred(&jlr_key);
	static_key_deferred_flush(&jlr_key);
	KUNIT_EXPECT_EQ(test, static_key_count(&jlr_key.key.key), 0);
	KUNIT_EXPECT_EQ(test, jlr_key_site(), 0);
	KUNIT_EXPECT_EQ(test, jlr_batches(), b1 + jlr_y);
}

/* Flush applies a pending dec now, long before the timeout. */
static void jlr_test_flush(struct kunit *test)
{
	unsigned long b0 = jlr_batches(), t0 = jiffies;

	static_branch_deferred_inc(&jlr_long);
	static_branch_slow_dec_deferred(&jlr_long);
	KUNIT_EXPECT_EQ(test, jlr_long_site(), 1 - !jlr_y);
	static_key_deferred_flush(&jlr_long);
	KUNIT_EXPECT_EQ(test, static_key_count(&jlr_long.key.key), 0);
	KUNIT_EXPECT_EQ(test, jlr_long_site(), 0);
	KUNIT_EXPECT_FALSE(test, delayed_work_pending(&jlr_long.work));
	KUNIT_EXPECT_LT(test, (long)(jiffies - t0), (long)(10 * HZ));
	KUNIT_EXPECT_EQ(test, jlr_batches(), b0 + 2 * jlr_y);
	static_key_deferred_flush(&jlr_long); /* nothing pending: no-op */
	KUNIT_EXPECT_EQ(test, jlr_batches(), b0 + 2 * jlr_y);
}

/* Rate limit 0: the last dec is queued with no delay. */
static void jlr_test_zero_rl(struct kunit *test)
{
	unsigned long b0 = jlr_batches();

	KUNIT_EXPECT_EQ(test, jlr_zero_site(), 1);
	static_branch_slow_dec_deferred(&jlr_zero);
	KUNIT_EXPECT_TRUE(test,
			  jlr_wait_count(&jlr_zero.key.key, 0, JLR_WAIT_MS));
	static_key_deferred_flush(&jlr_zero);
	KUNIT_EXPECT_EQ(test, jlr_zero_site(), 0);
	KUNIT_EXPECT_EQ(test, jlr_batches(), b0 + jlr_y);
	static_branch_deferred_inc(&jlr_zero);
	KUNIT_EXPECT_EQ(test, jlr_zero_site(), 1);
}

/* The older form: a bare key given a rate limit at run time. */
static void jlr_test_old_form(struct kunit *test)
{
	jump_label_rate_limit(&jlr_old, JLR_RL);
	KUNIT_EXPECT_EQ(test, jlr_old.timeout, JLR_RL);
	static_key_slow_inc(&jlr_old.key);
	static_key_slow_dec_deferred(&jlr_old);
	KUNIT_EXPECT_EQ(test, static_key_count(&jlr_old.key), jlr_y);
	static_key_deferred_flush(&jlr_old);
	KUNIT_EXPECT_EQ(test, static_key_count(&jlr_old.key), 0);
	KUNIT_EXPECT_FALSE(test, static_key_enabled(&jlr_old.key));
}

/* An unbalanced deferred dec WARNs once per key, like a plain one. */
static void jlr_test_unbalanced_warns(struct kunit *test)
{
	unsigned long warns = nr_warnings;
	u64 log = printk_log_end();

	static_branch_slow_dec_deferred(&jlr_unbal);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	STATIC_KEY_TEST_EXPECT_WARN(test, log, jlr_test_unbalanced_warns,
				    "decremented below zero");
	static_branch_slow_dec_deferred(&jlr_unbal);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	KUNIT_EXPECT_EQ(test, static_key_count(&jlr_unbal.key.key), 0);
	KUNIT_EXPECT_FALSE(test, delayed_work_pending(&jlr_unbal.work));
}

struct jlr_storm {
	bool deferred;
	int pairs; /* per thread */
	int done; /* threads finished */
};

static int jlr_storm_fn(void *data)
{
	struct jlr_storm *s = data;
	int i;

	for (i = 0; i < s->pairs; i++) {
		if (s->deferred) {
			static_branch_deferred_inc(&jlr_storm);
			static_branch_slow_dec_deferred(&jlr_storm);
		} else {
			static_branch_inc(&jlr_plain);
			static_branch_dec(&jlr_plain);
		}
		if (i % JLR_STORM_PACE == JLR_STORM_PACE - 1)
			msleep(1);
	}
	__atomic_add_fetch(&s->done, 1, __ATOMIC_SEQ_CST);
	kthread_wait_stop();
	return 0;
}

/* Runs the storm; returns the batches and sets *elapsed (jiffies). */
static unsigned long jlr_run_storm(struct kunit *test, bool deferred, int pairs,
				   unsigned long *elapsed)
{
	struct task_struct *t[JLR_STORM_THREADS];
	struct jlr_storm s = { .deferred = deferred,
			       .pairs = pairs / JLR_STORM_THREADS };
	unsigned long b0 = jlr_batches(), t0 = jiffies;
	int i, n = 0;

	for (i = 0; i < JLR_STORM_THREADS; i++) {
		t[n] = kthread_run(jlr_storm_fn, &s, "jlr_storm/%d", i);
		if (!IS_ERR(t[n]))
			n++;
	}
	KUNIT_EXPECT_EQ(test, n, JLR_STORM_THREADS);
	while (READ_ONCE(s.done) < n && (long)(jiffies - t0) < (long)(300 * HZ))
		msleep(5);
	KUNIT_EXPECT_EQ(test, READ_ONCE(s.done), n);
	*elapsed = jiffies - t0;
	for (i = 0; i < n; i++)
		kthread_stop(t[i]);
	if (deferred)
		static_key_deferred_flush(&jlr_storm);
	return jlr_batches() - b0;
}

/*
 * Every disable is the work's, at least a timeout after the dec that
 * queued it, which followed the enable: so at most one enable/disable
 * pair per window, plus one for the window the storm started in.
 */
static void jlr_test_storm(struct kunit *test)
{
	unsigned long elapsed, plain_elapsed, windows, batches, plain;

	batches = jlr_run_storm(test, true, JLR_STORM_PAIRS, &elapsed);
	windows = elapsed / JLR_STORM_RL;
	kunit_info(
		test,
		"deferred (rl %d jiffies): %lu batches in %lu jiffies (%lu windows), %d pairs\n",
		JLR_STORM_RL, batches, elapsed, windows, JLR_STORM_PAIRS);
	KUNIT_EXPECT_GE(test, windows, 5);
	KUNIT_EXPECT_LE(test, batches, 2 * (windows + 1));
	KUNIT_EXPECT_EQ(test, static_key_count(&jlr_storm.key.key), 0);
	KUNIT_EXPECT_EQ(test, jlr_storm_site(), 0);
	KUNIT_EXPECT_EQ(test, jlr_storm_site_long(), 0);

	plain = jlr_run_storm(test, false, JLR_PLAIN_PAIRS, &plain_elapsed);
	kunit_info(
		test,
		"plain key: %lu batches in %lu jiffies, %d pairs (same threads and pace)\n",
		plain, plain_elapsed, JLR_PLAIN_PAIRS);
	KUNIT_EXPECT_EQ(test, static_key_count(&jlr_plain.key), 0);
	KUNIT_EXPECT_EQ(test, jlr_plain_site(), 0);
	if (jlr_y)
		KUNIT_EXPECT_GT(test, plain, batches);
	else
		KUNIT_EXPECT_EQ(test, plain + batches, 0);
}

/*
 * The plain key through the whole storm, 10,000 pairs (slow: each patch
 * is three sync rounds on every CPU): the side-by-side figure, with the
 * deferred storm run again for it.
 */
static void jlr_test_storm_plain_full(struct kunit *test)
{
	unsigned long elapsed, plain_elapsed, batches, plain;

	batches = jlr_run_storm(test, true, JLR_STORM_PAIRS, &elapsed);
	plain = jlr_run_storm(test, false, JLR_STORM_PAIRS, &plain_elapsed);
	kunit_info(test,
		   "%d pairs: deferred (rl %d) %lu batches in %lu jiffies, plain %lu batches in %lu jiffies\n",
		   JLR_STORM_PAIRS, JLR_STORM_RL, batches, elapsed, plain,
		   plain_elapsed);
	KUNIT_EXPECT_EQ(test, static_key_count(&jlr_plain.key), 0);
	KUNIT_EXPECT_EQ(test, jlr_plain_site(), 0);
	if (!jlr_y) {
		KUNIT_EXPECT_EQ(test, plain + batches, 0);
		return;
	}
	/* Four threads overlap, so not every pair crosses 0 <-> 1. */
	KUNIT_EXPECT_GE(test, plain, JLR_STORM_PAIRS / 10);
	KUNIT_EXPECT_GT(test, plain, 10 * batches);
}

static struct kunit_case jump_label_ratelimit_test_cases[] = {
	KUNIT_CASE(jlr_test_last_dec_deferred),
	KUNIT_CASE(jlr_test_dec_above_one),
	KUNIT_CASE(jlr_test_inc_within_window),
	KUNIT_CASE(jlr_test_flush),
	KUNIT_CASE(jlr_test_zero_rl),
	KUNIT_CASE(jlr_test_old_form),
	KUNIT_CASE(jlr_test_unbalanced_warns),
	KUNIT_CASE(jlr_test_storm),
	KUNIT_CASE_SLOW(jlr_test_storm_plain_full),
	{}
};

static struct kunit_suite jump_label_ratelimit_test_suite = {
	.name = "jump_label_ratelimit",
	.test_cases = jump_label_ratelimit_test_cases,
};
kunit_test_suite(jump_label_ratelimit_test_suite);
