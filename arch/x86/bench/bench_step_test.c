// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "bench_step": the single-step counter of <linux/bench.h>
 * counts exactly what ran. Each case steps a function whose body is known
 * instruction by instruction and subtracts a session around an empty
 * function of the same frame: what is left is the body's count.
 */
#include <linux/kernel.h>
#include <linux/bench.h>
#include <linux/jump_label.h>
#include <linux/preempt.h>
#include <kunit/test.h>

/* Nine instructions: two branches (one conditional, taken or not). */
static noinline void bst_body(void)
{
	asm volatile("nop\n\t"
		     "nop\n\t"
		     "jmp 1f\n"
		     "1:\n\t"
		     "test %%eax, %%eax\n\t"
		     "jz 2f\n"
		     "2:\n\t"
		     "nop\n\t"
		     "cli\n\t"
		     "sti\n\t" /* the next one runs in its shadow */
		     "nop" ::
			     : "cc", "memory");
}

static noinline void bst_empty(void)
{
	asm volatile("" ::: "memory");
}

DEFINE_STATIC_KEY_FALSE(bst_key);

/* One static branch, disabled: a NOP (y) or a load, test and jcc (n). */
static noinline void bst_site(void)
{
	if (static_branch_unlikely(&bst_key))
		asm volatile("ud2"); /* never: the key stays off */
	asm volatile("" ::: "memory");
}

static struct bench_step_counts bst_count(void (*fn)(void), unsigned int n)
{
	struct bench_step_counts c = { 0 };
	unsigned int i;

	preempt_disable();
	if (!bench_step_start()) {
		for (i = 0; i < n; i++)
			fn();
		bench_step_stop(&c);
	}
	preempt_enable();
	return c;
}

static void bst_test_known_body(struct kunit *test)
{
	struct bench_step_counts body = bst_count(bst_body, 10);
	struct bench_step_counts empty = bst_count(bst_empty, 10);

	KUNIT_ASSERT_GT(test, empty.insns, 0);
	KUNIT_EXPECT_EQ(test, body.insns - empty.insns, 10 * 9);
	KUNIT_EXPECT_EQ(test, body.branches - empty.branches, 10 * 2);
	KUNIT_EXPECT_EQ(test, body.cond_branches - empty.cond_branches, 10 * 1);
	KUNIT_EXPECT_EQ(test, body.sites, empty.sites);
	/* The flag is off again: a plain call traps no more. */
	bst_body();
	KUNIT_EXPECT_FALSE(test, native_save_fl() & X86_EFLAGS_TF);
}

static void bst_test_static_site(struct kunit *test)
{
	struct bench_step_counts site = bst_count(bst_site, 10);
	struct bench_step_counts empty = bst_count(bst_empty, 10);

	if (IS_ENABLED(CONFIG_JUMP_LABEL)) {
		KUNIT_EXPECT_EQ(test, site.sites - empty.sites, 10);
		KUNIT_EXPECT_EQ(test, site.insns - empty.insns, 10); /* the NOP
								      */
		KUNIT_EXPECT_EQ(test, site.branches, empty.branches);
	} else {
		KUNIT_EXPECT_EQ(test, site.sites, 0);
		/* A conditional branch behind a load and test (or a cmp). */
		KUNIT_EXPECT_EQ(test, site.cond_branches - empty.cond_branches,
				10);
		KUNIT_EXPECT_GE(test, site.insns - empty.insns, 20);
	}
}

/* What the per-key and per-function walks of the last session found. */
struct bst_seen {
	u64 key_hits;
	bool body_seen;
	struct bench_step_counts body;
};

static void bst_seen_key(struct static_key *key, u64 hits, void *priv)
{
	struct bst_seen *seen = priv;

	if (key == &bst_key.key)
		seen->key_hits = hits;
}

static void bst_seen_func(const struct bench_step_func *f, void *priv)
{
	struct bst_seen *seen = priv;

	if (f->start == (unsigned long)bst_body) {
		seen->body_seen = true;
		seen->body = f->c;
	}
}

/*
 * bench_step_funcs(): bst_body's own counts, the calls of the session
 * summed (its two branches and a return a call, the jz the only
 * conditional one); bench_step_keys(): the site of bst_key ran once a
 * call (CONFIG_JUMP_LABEL).
 */
static void bst_test_keys_and_funcs(struct kunit *test)
{
	struct bst_seen seen = { 0 };

	bst_count(bst_body, 10);
	bench_step_funcs(bst_seen_func, &seen);
	KUNIT_ASSERT_TRUE(test, seen.body_seen);
	KUNIT_EXPECT_GE(test, seen.body.insns, 10 * 9);
	KUNIT_EXPECT_EQ(test, seen.body.branches, 10 * 3);
	KUNIT_EXPECT_EQ(test, seen.body.cond_branches, 10 * 1);
	bst_count(bst_site, 10);
	bench_step_keys(bst_seen_key, &seen);
	KUNIT_EXPECT_EQ(test, seen.key_hits,
			IS_ENABLED(CONFIG_JUMP_LABEL) ? 10 : 0);
}

static struct kunit_case bst_cases[] = { KUNIT_CASE(bst_test_known_body),
					 KUNIT_CASE(bst_test_static_site),
					 KUNIT_CASE(bst_test_keys_and_funcs),
					 {} };

static struct kunit_suite bst_suite = {
	.name = "bench_step",
	.test_cases = bst_cases,
};
kunit_test_suite(bst_suite);
