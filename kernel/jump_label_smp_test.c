// SPDX-License-Identifier: GPL-2.0
/*
 * Static keys flipped while other CPUs execute their sites (boot with 4
 * CPUs: QEMU's multi-threaded TCG runs them on separate host threads).
 *
 * Readers run inside a call-function IPI with interrupts re-enabled, so
 * they keep servicing the sync-core IPIs of the patching CPU.
 */
#include <linux/jump_label.h>
#include <linux/jump_label_arch.h>
#include <linux/percpu.h>
#include <linux/smp.h>
#include <asm/processor.h>
#include <asm/text-patching.h>
#include <kunit/test.h>

#define JLS_KEYS 4

DEFINE_STATIC_KEY_FALSE(jls_big);
DEFINE_STATIC_KEY_FALSE(jls_emul);
DEFINE_STATIC_KEY_FALSE(jls_count);
DEFINE_STATIC_KEY_ARRAY_FALSE(jls_keys, JLS_KEYS);

/* 1,024 sites of one key: each taken branch counts one. */
#define JLS_S1 n += static_branch_unlikely(&jls_big);
#define JLS_S4 JLS_S1 JLS_S1 JLS_S1 JLS_S1
#define JLS_S16 JLS_S4 JLS_S4 JLS_S4 JLS_S4
#define JLS_S64 JLS_S16 JLS_S16 JLS_S16 JLS_S16
#define JLS_S256 JLS_S64 JLS_S64 JLS_S64 JLS_S64
#define JLS_BIG_SITES 1024

static noinline int jls_big_fn(void)
{
	int n = 0;

	JLS_S256 JLS_S256 JLS_S256 JLS_S256
	return n;
}

static noinline int jls_emul_unlikely(void)
{
	return static_branch_unlikely(&jls_emul) ? 1 : 0;
}

static noinline int jls_emul_unlikely_long(void)
{
	if (static_branch_unlikely(&jls_emul))
		return 1;
	asm volatile(".skip 200, 0x90");
	return 0;
}

static noinline int jls_emul_likely(void)
{
	return static_branch_likely(&jls_emul) ? 1 : 0;
}

static noinline int jls_emul_likely_long(void)
{
	if (static_branch_likely(&jls_emul)) {
		asm volatile(".skip 200, 0x90");
		return 1;
	}
	return 0;
}

static int (*const jls_emul_fns[])(void) = {
	jls_emul_unlikely, jls_emul_unlikely_long,
	jls_emul_likely, jls_emul_likely_long,
};

/* Reader sites: two per key, one of each length. */
#define JLS_READER(i)                                                  \
	static noinline int jls_read##i(void)                          \
	{                                                              \
		int n = static_branch_unlikely(&jls_keys[i]);          \
									\
		if (static_branch_likely(&jls_keys[i])) {              \
			asm volatile(".skip 160, 0x90");               \
			return n + 1;                                  \
		}                                                      \
		return n;                                              \
	}
JLS_READER(0)
JLS_READER(1)
JLS_READER(2)
JLS_READER(3)

static int (*const jls_readers[JLS_KEYS])(void) = {
	jls_read0, jls_read1, jls_read2, jls_read3,
};

static unsigned int jls_entries(struct static_key *key)
{
	struct jump_entry *iter;
	unsigned int n = 0;

	for (iter = __start___jump_table; iter < __stop___jump_table; iter++)
		n += jump_entry_key(iter) == key;
	return n;
}

/* Every site of the key holds a JMP (enabled, unlikely) or a NOP. */
static unsigned int jls_sites_wrong(struct static_key *key, bool enabled)
{
	struct jump_entry *iter;
	unsigned int bad = 0;

	for (iter = __start___jump_table; iter < __stop___jump_table; iter++) {
		if (jump_entry_key(iter) != key)
			continue;
		bad += arch_jump_label_check_site(iter, enabled ^
						jump_entry_is_branch(iter)) != 0;
	}
	return bad;
}

static void jls_big_key(struct kunit *test, bool batched)
{
	unsigned int n = jls_entries(&jls_big.key);
	unsigned long per_flip = batched ? 3 : 3 * n;
	struct text_poke_stats before = text_poke_stats;
	unsigned long ipis = smp_stats.ipis_sent;
	bool saved = text_poke_batching;

	KUNIT_ASSERT_EQ(test, n, JLS_BIG_SITES);
	text_poke_batching = batched;
	static_branch_enable(&jls_big);
	KUNIT_EXPECT_EQ(test, text_poke_stats.sync_rounds,
			before.sync_rounds + per_flip);
	KUNIT_EXPECT_EQ(test, text_poke_stats.sites, before.sites + n);
	KUNIT_EXPECT_EQ(test, text_poke_stats.batches,
			before.batches + (batched ? 1 : n));
	KUNIT_EXPECT_EQ(test, jls_sites_wrong(&jls_big.key, true), 0);
	KUNIT_EXPECT_EQ(test, jls_big_fn(), n);
	static_branch_disable(&jls_big);
	KUNIT_EXPECT_EQ(test, text_poke_stats.sync_rounds,
			before.sync_rounds + 2 * per_flip);
	KUNIT_EXPECT_EQ(test, jls_sites_wrong(&jls_big.key, false), 0);
	KUNIT_EXPECT_EQ(test, jls_big_fn(), 0);
	text_poke_batching = saved;
	kunit_info(test, "%u sites, %s: %lu sync rounds and %lu IPIs a flip", n,
		   batched ? "batched" : "unbatched", per_flip,
		   (smp_stats.ipis_sent - ipis) / 2);
}

static void jls_test_big_batched(struct kunit *test)
{
	jls_big_key(test, true);
}

static void jls_test_big_unbatched(struct kunit *test)
{
	jls_big_key(test, false);
}

/*
 * The int3 emulation itself: in the middle of a flip, with int3 on every
 * site, this CPU runs the sites; each trap must land where the new
 * instruction would (a JMP for the unlikely sites, a NOP for the likely
 * ones when enabling; the reverse when disabling), for 2- and 5-byte sites.
 */
static struct {
	int expect;
	int results[2][ARRAY_SIZE(jls_emul_fns)];
	bool ran[2];
} jls_emul_state;

static void jls_emul_hook(enum text_poke_step step)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(jls_emul_fns); i++)
		jls_emul_state.results[step][i] = jls_emul_fns[i]();
	jls_emul_state.ran[step] = true;
}

static void jls_emul_flip(struct kunit *test, bool enable)
{
	unsigned long hits = text_poke_int3_hits();
	unsigned int step, i;

	memset(&jls_emul_state, 0, sizeof(jls_emul_state));
	text_poke_test_hook = jls_emul_hook;
	if (enable)
		static_branch_enable(&jls_emul);
	else
		static_branch_disable(&jls_emul);
	text_poke_test_hook = NULL;
	/* Two steps with int3 in place, four sites run at each. */
	KUNIT_EXPECT_EQ(test, text_poke_int3_hits(),
			hits + 2 * ARRAY_SIZE(jls_emul_fns));
	for (step = 0; step < 2; step++) {
		KUNIT_EXPECT_TRUE(test, jls_emul_state.ran[step]);
		for (i = 0; i < ARRAY_SIZE(jls_emul_fns); i++)
			KUNIT_EXPECT_EQ_MSG(test, jls_emul_state.results[step][i],
					    enable, "%ps at step %u",
					    jls_emul_fns[i], step);
	}
	for (i = 0; i < ARRAY_SIZE(jls_emul_fns); i++)
		KUNIT_EXPECT_EQ(test, jls_emul_fns[i](), enable);
}

static void jls_test_int3_emulation(struct kunit *test)
{
	jls_emul_flip(test, true);
	jls_emul_flip(test, false);
}

/* Stress: readers on every other CPU, flips on this one. */
#define JLS_FLIPS 10000
#define JLS_HANDSHAKE_EVERY 500

struct jls_stress {
	bool stop;
	unsigned long gen;		/* flips completed */
	int state[JLS_KEYS];		/* each key's state after them */
	int in_flight;			/* 1 + the key being flipped, or 0 */
	unsigned long check_seq;	/* handshake requests */
	unsigned long ack[NR_CPUS];	/* handshakes each reader answered */
	unsigned long loops[NR_CPUS];
	atomic_t violations;
	atomic_t handshake_violations;
	atomic_t running;
};

static struct jls_stress jls_stress;

/* Checks one pass over every key against what the flipper published. */
static void jls_reader_pass(struct jls_stress *s)
{
	unsigned long gen = __atomic_load_n(&s->gen, __ATOMIC_ACQUIRE);
	int snap[JLS_KEYS], k;

	for (k = 0; k < JLS_KEYS; k++)
		snap[k] = READ_ONCE(s->state[k]);
	for (k = 0; k < JLS_KEYS; k++) {
		int r = jls_readers[k]();

		/* Old or new while in flight; only the new once done. */
		if (r != 2 * snap[k] && READ_ONCE(s->in_flight) != k + 1 &&
		    __atomic_load_n(&s->gen, __ATOMIC_ACQUIRE) == gen)
			atomic_inc(&s->violations);
	}
}

/* The handshake: the flipper waits, so nothing is in flight now. */
static void jls_reader_handshake(struct jls_stress *s, unsigned int cpu)
{
	unsigned long seq = __atomic_load_n(&s->check_seq, __ATOMIC_ACQUIRE);
	int k;

	if (seq == s->ack[cpu])
		return;
	for (k = 0; k < JLS_KEYS; k++)
		if (jls_readers[k]() != 2 * READ_ONCE(s->state[k]))
			atomic_inc(&s->handshake_violations);
	__atomic_store_n(&s->ack[cpu], seq, __ATOMIC_RELEASE);
}

static void jls_reader(void *info)
{
	struct jls_stress *s = info;
	unsigned int cpu = smp_processor_id();

	local_irq_enable();
	while (!READ_ONCE(s->stop)) {
		jls_reader_pass(s);
		jls_reader_handshake(s, cpu);
		s->loops[cpu]++;
	}
	local_irq_disable();
	atomic_dec(&s->running);
}

static void jls_handshake(struct jls_stress *s)
{
	unsigned long seq = s->check_seq + 1;
	unsigned int cpu;

	__atomic_store_n(&s->check_seq, seq, __ATOMIC_RELEASE);
	for_each_online_cpu(cpu) {
		if (cpu == smp_processor_id())
			continue;
		while (__atomic_load_n(&s->ack[cpu], __ATOMIC_ACQUIRE) != seq)
			cpu_relax();
	}
}

static void jls_flip(struct jls_stress *s, unsigned int i)
{
	int k = i % JLS_KEYS, on = !s->state[k];

	WRITE_ONCE(s->in_flight, k + 1);
	if (on)
		static_branch_enable(&jls_keys[k]);
	else
		static_branch_disable(&jls_keys[k]);
	WRITE_ONCE(s->state[k], on);
	__atomic_store_n(&s->gen, s->gen + 1, __ATOMIC_RELEASE);
	WRITE_ONCE(s->in_flight, 0);
}

static void jls_test_stress(struct kunit *test)
{
	struct jls_stress *s = &jls_stress;
	unsigned long hits = text_poke_int3_hits(), loops = 0;
	unsigned int cpu, i, readers = num_online_cpus() - 1;

	if (!readers)
		kunit_skip(test, "needs at least 2 CPUs, booted with 1");
	memset(s, 0, sizeof(*s));
	atomic_set(&s->running, readers);
	smp_call_function(jls_reader, s, 0);
	for (i = 0; i < JLS_FLIPS; i++) {
		jls_flip(s, i);
		if (i % JLS_HANDSHAKE_EVERY == JLS_HANDSHAKE_EVERY - 1)
			jls_handshake(s);
	}
	WRITE_ONCE(s->stop, true);
	while (atomic_read(&s->running))
		cpu_relax();
	for_each_online_cpu(cpu)
		loops += s->loops[cpu];
	KUNIT_EXPECT_EQ(test, atomic_read(&s->violations), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&s->handshake_violations), 0);
	KUNIT_EXPECT_EQ(test, s->check_seq, JLS_FLIPS / JLS_HANDSHAKE_EVERY);
	KUNIT_EXPECT_GT(test, loops, 0);
	KUNIT_EXPECT_GT(test, text_poke_int3_hits(), hits);
	kunit_info(test, "%u flips, %u readers, %lu reader passes, %lu int3 hits",
		   JLS_FLIPS, readers, loops, text_poke_int3_hits() - hits);
	for (i = 0; i < JLS_KEYS; i++)
		if (s->state[i])
			static_branch_disable(&jls_keys[i]);
}

/* Concurrent inc/dec from every CPU: the count and the code must agree. */
#define JLS_OPS 100000

static noinline int jls_count_fn(void)
{
	return static_branch_unlikely(&jls_count) ? 1 : 0;
}

struct jls_count_ctx {
	unsigned int pairs;	/* inc+dec pairs per CPU */
	atomic_t running;
};

/* pairs inc/dec pairs, then one more inc: each CPU leaves +1. */
static void jls_incdec_loop(struct jls_count_ctx *ctx)
{
	unsigned int i;

	for (i = 0; i < ctx->pairs; i++) {
		static_branch_inc(&jls_count);
		static_branch_dec(&jls_count);
	}
	static_branch_inc(&jls_count);
	atomic_dec(&ctx->running);
}

static void jls_incdec_ipi(void *info)
{
	local_irq_enable();
	jls_incdec_loop(info);
	local_irq_disable();
}

static void jls_test_inc_dec_concurrent(struct kunit *test)
{
	unsigned int n = num_online_cpus(), i;
	struct jls_count_ctx ctx = { .pairs = JLS_OPS / n / 2 };
	struct text_poke_stats before = text_poke_stats;

	atomic_set(&ctx.running, n);
	smp_call_function(jls_incdec_ipi, &ctx, 0);
	jls_incdec_loop(&ctx);
	while (atomic_read(&ctx.running))
		cpu_relax();
	KUNIT_EXPECT_EQ(test, static_key_count(&jls_count.key), n);
	KUNIT_EXPECT_EQ(test, jls_count_fn(), 1);
	KUNIT_EXPECT_EQ(test, jls_sites_wrong(&jls_count.key, true), 0);
	kunit_info(test, "%u CPUs, %u operations, %lu flips", n,
		   n * (2 * ctx.pairs + 1),
		   text_poke_stats.batches - before.batches);
	for (i = 0; i < n; i++)
		static_branch_dec(&jls_count);
	KUNIT_EXPECT_EQ(test, static_key_count(&jls_count.key), 0);
	KUNIT_EXPECT_EQ(test, jls_count_fn(), 0);
	KUNIT_EXPECT_EQ(test, jls_sites_wrong(&jls_count.key, false), 0);
}

static struct kunit_case jls_cases[] = {
	KUNIT_CASE(jls_test_int3_emulation),
	KUNIT_CASE(jls_test_big_batched),
	KUNIT_CASE(jls_test_big_unbatched),
	KUNIT_CASE(jls_test_inc_dec_concurrent),
	KUNIT_CASE(jls_test_stress),
	{}
};

static struct kunit_suite jls_suite = {
	.name = "jump_label_smp",
	.test_cases = jls_cases,
};
kunit_test_suite(jls_suite);
