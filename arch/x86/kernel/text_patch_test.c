// SPDX-License-Identifier: GPL-2.0
/*
 * The patch engine under real concurrency (boot with 4 CPUs: QEMU's
 * multi-threaded TCG runs them on separate host threads): the text lock,
 * the int3 emulation, a 1,024-site key in three sync rounds, flips while
 * kmalloc() fails, and a stress of many flips with readers on every other
 * CPU.
 *
 * Readers run inside a call-function IPI with interrupts re-enabled, so
 * they keep servicing the sync-core IPIs of the patching CPU. Every wait on
 * other CPUs is bounded by the case's time budget: a run that is too slow
 * fails with a message instead of hanging.
 */
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/jump_label_arch.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <asm/processor.h>
#include <asm/text-patching.h>
#include <asm/text-patching-stats.h>
#include <asm/nmi.h>
#include <asm/text-sync.h>
#include <asm/traps.h>
#include <asm/tsc.h>
#include <asm/user.h>
#include <fixtures/static_key_sites.h>
#include <fixtures/user_spin.h>
#include <kunit/test.h>
#include <trace/events/syscalls.h>

/*
 * The stress case: text_patch_test.flips=N flips (make stress: 100,000)
 * within text_patch_test.budget=S seconds of wall time.
 */
static unsigned int tpt_flips = 2000;
core_param_named("text_patch_test.flips", tpt_flips, uint);
static unsigned int tpt_budget_s = 300;
core_param_named("text_patch_test.budget", tpt_budget_s, uint);
/*
 * The stress whose readers come and go (idle, user mode, NMIs): 1,000 flips
 * in make test, two handshakes (make stress: 100,000).
 */
static unsigned int tpt_entry_flips = 1000;
core_param_named("text_patch_test.entry_flips", tpt_entry_flips, uint);

DEFINE_STATIC_KEY_FALSE(tpt_one);
DEFINE_STATIC_KEY_FALSE(tpt_56);
DEFINE_STATIC_KEY_FALSE(tpt_big);
DEFINE_STATIC_KEY_FALSE(tpt_emul);
#define TPT_STRESS_KEYS 4
DEFINE_STATIC_KEY_ARRAY_FALSE(tpt_keys, TPT_STRESS_KEYS);

/* Each taken branch counts one: a function returns its key's state x sites. */
#define TPT_S1(k) n += static_branch_unlikely(&k);
#define TPT_S8(k) TPT_S1(k) TPT_S1(k) TPT_S1(k) TPT_S1(k) \
		  TPT_S1(k) TPT_S1(k) TPT_S1(k) TPT_S1(k)
#define TPT_S64(k) TPT_S8(k) TPT_S8(k) TPT_S8(k) TPT_S8(k) \
		   TPT_S8(k) TPT_S8(k) TPT_S8(k) TPT_S8(k)
#define TPT_S256(k) TPT_S64(k) TPT_S64(k) TPT_S64(k) TPT_S64(k)
#define TPT_SITES_FN(name, body)               \
	static noinline int name(void)         \
	{                                      \
		int n = 0;                     \
					       \
		body                           \
		return n;                      \
	}

TPT_SITES_FN(tpt_one_fn, TPT_S1(tpt_one))
TPT_SITES_FN(tpt_56_fn, TPT_S8(tpt_56) TPT_S8(tpt_56) TPT_S8(tpt_56)
	     TPT_S8(tpt_56) TPT_S8(tpt_56) TPT_S8(tpt_56) TPT_S8(tpt_56))
TPT_SITES_FN(tpt_big_fn, TPT_S256(tpt_big) TPT_S256(tpt_big)
	     TPT_S256(tpt_big) TPT_S256(tpt_big))

/* Stress readers: two sites per key, one of each length and macro. */
#define TPT_READER(i)                                                  \
	static noinline int tpt_read##i(void)                          \
	{                                                              \
		int n = static_branch_unlikely(&tpt_keys[i]);          \
									\
		if (static_branch_likely(&tpt_keys[i])) {              \
			asm volatile(".skip 160, 0x90");               \
			return n + 1;                                  \
		}                                                      \
		return n;                                              \
	}
TPT_READER(0)
TPT_READER(1)
TPT_READER(2)
TPT_READER(3)

struct tpt_key {
	struct static_key_false *key;
	int (*fn)(void);
	unsigned int sites;
};

static const struct tpt_key tpt_sized[] = {
	{ &tpt_one, tpt_one_fn, 1 },
	{ &tpt_56, tpt_56_fn, 56 },
	{ &tpt_big, tpt_big_fn, 1024 },
};

static const struct tpt_key tpt_stress_keys[TPT_STRESS_KEYS] = {
	{ &tpt_keys[0], tpt_read0, 2 },
	{ &tpt_keys[1], tpt_read1, 2 },
	{ &tpt_keys[2], tpt_read2, 2 },
	{ &tpt_keys[3], tpt_read3, 2 },
};

/* text_poke() without text_mutex WARNs (and still writes). */
static void tpt_test_text_lock(struct kunit *test)
{
	u8 *code = (u8 *)tpt_one_fn;
	unsigned long warns = nr_warnings;
	u8 same[1] = { code[0] };

	KUNIT_EXPECT_FALSE(test, mutex_is_owner(&text_mutex));
	text_poke(code, same, 1);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	mutex_lock(&text_mutex);
	text_poke(code, same, 1);
	mutex_unlock(&text_mutex);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	KUNIT_EXPECT_EQ(test, tpt_one_fn(), 0);
}

/*
 * One flip each way of a key from tpt_sized[]: batched, three sync rounds
 * a flip whatever the number of sites; unbatched, three a site.
 */
static void tpt_sized_key(struct kunit *test, const struct tpt_key *k,
			  bool batched)
{
	struct static_key *key = &k->key->key;
	unsigned int n = static_key_test_entries(key);
	unsigned long per_flip = batched ? 3 : 3 * n;
	struct text_poke_stats before = text_poke_stats;
	unsigned long ipis = smp_stats.ipis_sent;
	bool saved = text_poke_batching;

	KUNIT_ASSERT_EQ(test, n, k->sites);
	text_poke_batching = batched;
	static_branch_enable(k->key);
	KUNIT_EXPECT_EQ(test, text_poke_stats.sync_rounds,
			before.sync_rounds + per_flip);
	KUNIT_EXPECT_EQ(test, text_poke_stats.sites, before.sites + n);
	KUNIT_EXPECT_EQ(test, text_poke_stats.batches,
			before.batches + (batched ? 1 : n));
	KUNIT_EXPECT_EQ(test, static_key_test_wrong_sites(key, true), 0);
	KUNIT_EXPECT_EQ(test, k->fn(), n);
	static_branch_disable(k->key);
	KUNIT_EXPECT_EQ(test, text_poke_stats.sync_rounds,
			before.sync_rounds + 2 * per_flip);
	KUNIT_EXPECT_EQ(test, static_key_test_wrong_sites(key, false), 0);
	KUNIT_EXPECT_EQ(test, k->fn(), 0);
	text_poke_batching = saved;
	kunit_info(test, "%u sites, %s: %lu sync rounds and %lu IPIs a flip", n,
		   batched ? "batched" : "unbatched", per_flip,
		   (smp_stats.ipis_sent - ipis) / 2);
}

/* 1,024 sites in 3 rounds (Linux, flushing every 256 sites: 12). */
static void tpt_test_big_batched(struct kunit *test)
{
	tpt_sized_key(test, &tpt_sized[2], true);
}

/* 56 sites one by one: 168 rounds, the figure batching saves. */
static void tpt_test_56_unbatched(struct kunit *test)
{
	tpt_sized_key(test, &tpt_sized[1], false);
}

/*
 * The int3 emulation itself: in the middle of a flip, with int3 on every
 * site, this CPU runs the sites; each trap must land where the new
 * instruction would (a JMP for the unlikely sites, a NOP for the likely
 * ones when enabling; the reverse when disabling), for 2- and 5-byte sites.
 */
static noinline int tpt_emul_unlikely(void)
{
	return static_branch_unlikely(&tpt_emul) ? 1 : 0;
}

static noinline int tpt_emul_unlikely_long(void)
{
	if (static_branch_unlikely(&tpt_emul))
		return 1;
	asm volatile(".skip 200, 0x90");
	return 0;
}

static noinline int tpt_emul_likely(void)
{
	return static_branch_likely(&tpt_emul) ? 1 : 0;
}

static noinline int tpt_emul_likely_long(void)
{
	if (static_branch_likely(&tpt_emul)) {
		asm volatile(".skip 200, 0x90");
		return 1;
	}
	return 0;
}

static int (*const tpt_emul_fns[])(void) = {
	tpt_emul_unlikely, tpt_emul_unlikely_long,
	tpt_emul_likely, tpt_emul_likely_long,
};

static struct {
	int results[2][ARRAY_SIZE(tpt_emul_fns)];
	bool ran[2];
} tpt_emul_state;

static void tpt_emul_hook(enum text_poke_step step)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(tpt_emul_fns); i++)
		tpt_emul_state.results[step][i] = tpt_emul_fns[i]();
	tpt_emul_state.ran[step] = true;
}

static void tpt_emul_flip(struct kunit *test, bool enable)
{
	unsigned long hits = text_poke_int3_hits();
	unsigned int step, i;

	memset(&tpt_emul_state, 0, sizeof(tpt_emul_state));
	text_poke_test_hook = tpt_emul_hook;
	if (enable)
		static_branch_enable(&tpt_emul);
	else
		static_branch_disable(&tpt_emul);
	text_poke_test_hook = NULL;
	/* Two steps with int3 in place, four sites run at each. */
	KUNIT_EXPECT_EQ(test, text_poke_int3_hits(),
			hits + 2 * ARRAY_SIZE(tpt_emul_fns));
	for (step = 0; step < 2; step++) {
		KUNIT_EXPECT_TRUE(test, tpt_emul_state.ran[step]);
		for (i = 0; i < ARRAY_SIZE(tpt_emul_fns); i++)
			KUNIT_EXPECT_EQ_MSG(test, tpt_emul_state.results[step][i],
					    enable, "%ps at step %u",
					    tpt_emul_fns[i], step);
	}
	for (i = 0; i < ARRAY_SIZE(tpt_emul_fns); i++)
		KUNIT_EXPECT_EQ(test, tpt_emul_fns[i](), enable);
}

/* An int3 of its own, which only this suite's hooks claim. */
extern const char tpt_int3_ip[];

static noinline void tpt_int3(void)
{
	asm volatile(".globl tpt_int3_ip\n\t"
		     "int3\n"
		     "tpt_int3_ip:" ::: "memory");
}

static unsigned int tpt_hook_hits[2];

static bool tpt_hook_first(struct pt_regs *regs)
{
	if (regs->ip != (unsigned long)tpt_int3_ip)
		return false;
	tpt_hook_hits[0]++;
	return true;
}

static bool tpt_hook_second(struct pt_regs *regs)
{
	if (regs->ip != (unsigned long)tpt_int3_ip)
		return false;
	tpt_hook_hits[1]++;
	return true;
}

/*
 * The int3 hooks: the last registered is asked first, and one that claims
 * the trap ends the walk; an unregistered hook is asked no more.
 */
static void tpt_test_int3_hooks(struct kunit *test)
{
	static struct int3_hook first = { .handler = tpt_hook_first };
	static struct int3_hook second = { .handler = tpt_hook_second };

	memset(tpt_hook_hits, 0, sizeof(tpt_hook_hits));
	register_int3_hook(&second);
	register_int3_hook(&first);
	tpt_int3();
	KUNIT_EXPECT_EQ(test, tpt_hook_hits[0], 1);
	KUNIT_EXPECT_EQ(test, tpt_hook_hits[1], 0);
	unregister_int3_hook(&first);
	tpt_int3();
	KUNIT_EXPECT_EQ(test, tpt_hook_hits[0], 1);
	KUNIT_EXPECT_EQ(test, tpt_hook_hits[1], 1);
	unregister_int3_hook(&second);
}

/*
 * A stale int3 (tp_int3_stale() in text_patch.c): one that no batch holds,
 * trapped on at a byte that is no longer 0xcc. The int3 of tpt_stale()
 * is real; a hook asked before the engine's moves the ip to just after
 * tpt_stale_byte, a NOP, as if the CPU had fetched an int3 there that was
 * removed since, and passes the trap on. The engine must back up over it,
 * so that the NOP runs and tpt_stale() returns 1, count it, and (under
 * TCG, where it rewrites the byte as it is) leave the byte as it was.
 * Twice, with a batch between: the second is a new stale int3.
 */
extern const char tpt_stale_ip[], tpt_stale_byte[];

static noinline int tpt_stale(void)
{
	int r;

	asm volatile(".globl tpt_stale_ip, tpt_stale_byte\n\t"
		     "int3\n"
		     "tpt_stale_ip:\n\t"
		     "movl $0, %0\n\t"
		     "jmp 1f\n"
		     "tpt_stale_byte:\n\t"
		     "nop\n\t"
		     "movl $1, %0\n"
		     "1:"
		     : "=r"(r)
		     :
		     : "memory");
	return r;
}

static bool tpt_stale_hook(struct pt_regs *regs)
{
	if (regs->ip == (unsigned long)tpt_stale_ip)
		regs->ip = (unsigned long)tpt_stale_byte + 1;
	return false;
}

static void tpt_test_int3_stale(struct kunit *test)
{
	static struct int3_hook hook = { .handler = tpt_stale_hook };
	unsigned long stale = text_poke_get_stats().stale_int3s;

	if (!text_poke_parks())
		kunit_skip(test, "text_poke.park=off: a stale int3 is an oops");
	register_int3_hook(&hook);
	KUNIT_EXPECT_EQ(test, tpt_stale(), 1);
	KUNIT_EXPECT_EQ(test, text_poke_get_stats().stale_int3s, stale + 1);
	static_branch_enable(&tpt_one);
	static_branch_disable(&tpt_one);
	KUNIT_EXPECT_EQ(test, tpt_stale(), 1);
	KUNIT_EXPECT_EQ(test, text_poke_get_stats().stale_int3s, stale + 2);
	unregister_int3_hook(&hook);
	KUNIT_EXPECT_EQ(test, *(const u8 *)tpt_stale_byte, 0x90);
}

static void tpt_test_int3_emulation(struct kunit *test)
{
	tpt_emul_flip(test, true);
	tpt_emul_flip(test, false);
}

/*
 * Flips with readers: this CPU flips keys[i % nr_keys] flips times, the
 * other CPUs run the keys' site functions and check what they see against
 * what the flipper published. Every handshake_every flips the flipper waits
 * until each reader has checked every key with nothing in flight.
 */
#define TPT_MAX_KEYS 4

struct tpt_run {
	const struct tpt_key *keys;
	unsigned int nr_keys;
	unsigned int flips;
	unsigned int handshake_every;
	unsigned int fail_allocs;	/* kmalloc() failures injected a flip */
	const struct cpumask *ipi_cpus;	/* IPI readers (NULL: every other) */
	unsigned int nmi_every;		/* flips between NMIs to all (0: none) */
	u64 deadline;			/* rdtsc() value: the time budget */
	/* Shared with the readers. */
	bool stop;
	unsigned long gen;		/* flips completed */
	int state[TPT_MAX_KEYS];	/* each key's state after them */
	int in_flight;			/* 1 + the key being flipped, or 0 */
	unsigned long check_seq;	/* handshake requests */
	unsigned long ack[NR_CPUS];	/* handshakes each reader answered */
	unsigned long loops[NR_CPUS];
	atomic_t violations;
	atomic_t handshake_violations;
	atomic_t running;
	/* Results of the flipper. */
	unsigned int done;
	unsigned int wrong_sites;
	unsigned int wrong_results;
	bool out_of_time;
};

static struct tpt_run tpt_run;

static int tpt_expect(const struct tpt_run *r, unsigned int k, int state)
{
	return state ? r->keys[k].sites : 0;
}

/* Checks one pass over every key against what the flipper published. */
static void tpt_reader_pass(struct tpt_run *r)
{
	unsigned long gen = __atomic_load_n(&r->gen, __ATOMIC_ACQUIRE);
	int snap[TPT_MAX_KEYS], got;
	unsigned int k;

	for (k = 0; k < r->nr_keys; k++)
		snap[k] = READ_ONCE(r->state[k]);
	for (k = 0; k < r->nr_keys; k++) {
		got = r->keys[k].fn();
		/* Old or new (or a mix) while in flight; only new once done. */
		if (got != tpt_expect(r, k, snap[k]) &&
		    READ_ONCE(r->in_flight) != k + 1 &&
		    __atomic_load_n(&r->gen, __ATOMIC_ACQUIRE) == gen)
			atomic_inc(&r->violations);
	}
}

/* The handshake: the flipper waits, so nothing is in flight now. */
static void tpt_reader_handshake(struct tpt_run *r, unsigned int cpu)
{
	unsigned long seq = __atomic_load_n(&r->check_seq, __ATOMIC_ACQUIRE);
	unsigned int k;

	if (seq == r->ack[cpu])
		return;
	for (k = 0; k < r->nr_keys; k++)
		if (r->keys[k].fn() != tpt_expect(r, k, READ_ONCE(r->state[k])))
			atomic_inc(&r->handshake_violations);
	__atomic_store_n(&r->ack[cpu], seq, __ATOMIC_RELEASE);
}

static void tpt_reader(void *info)
{
	struct tpt_run *r = info;
	unsigned int cpu = smp_processor_id();

	local_irq_enable();
	while (!READ_ONCE(r->stop)) {
		tpt_reader_pass(r);
		tpt_reader_handshake(r, cpu);
		r->loops[cpu]++;
	}
	local_irq_disable();
	atomic_dec(&r->running);
}

static bool tpt_out_of_time(struct tpt_run *r)
{
	if (rdtsc() > r->deadline)
		r->out_of_time = true;
	return r->out_of_time;
}

static void tpt_handshake(struct tpt_run *r)
{
	unsigned long seq = r->check_seq + 1;
	unsigned int cpu;

	__atomic_store_n(&r->check_seq, seq, __ATOMIC_RELEASE);
	for_each_online_cpu(cpu) {
		if (cpu == smp_processor_id())
			continue;
		while (__atomic_load_n(&r->ack[cpu], __ATOMIC_ACQUIRE) != seq)
			if (tpt_out_of_time(r))
				return;
			else
				cpu_relax();
	}
}

static void tpt_flip(struct tpt_run *r, unsigned int i)
{
	unsigned int k = i % r->nr_keys;
	const struct tpt_key *key = &r->keys[k];
	int on = !r->state[k];

	WRITE_ONCE(r->in_flight, k + 1);
	kmalloc_fail_next(r->fail_allocs);
	if (on)
		static_branch_enable(key->key);
	else
		static_branch_disable(key->key);
	kmalloc_fail_next(0);
	WRITE_ONCE(r->state[k], on);
	__atomic_store_n(&r->gen, r->gen + 1, __ATOMIC_RELEASE);
	WRITE_ONCE(r->in_flight, 0);
	r->wrong_sites += static_key_test_wrong_sites(&key->key->key, on);
	r->wrong_results += key->fn() != tpt_expect(r, k, on);
}

/* The IPI readers of r: every other online CPU, or r->ipi_cpus'. */
static unsigned int tpt_ipi_readers(struct tpt_run *r, struct cpumask *cpus)
{
	unsigned int cpu, n = 0;

	cpumask_clear(cpus);
	for_each_online_cpu(cpu)
		if (cpu != smp_processor_id() &&
		    (!r->ipi_cpus || cpumask_test_cpu(cpu, r->ipi_cpus))) {
			cpumask_set_cpu(cpu, cpus);
			n++;
		}
	return n;
}

/* Runs r (keys, counts and budget filled in); returns the reader passes. */
static unsigned long tpt_run_flips(struct tpt_run *r, unsigned int budget_s)
{
	unsigned int cpu, i, readers = num_online_cpus() - 1;
	unsigned long loops = 0;
	struct cpumask ipi_cpus;

	r->deadline = rdtsc() + (u64)budget_s * 1000 * tsc_khz;
	atomic_set(&r->running, tpt_ipi_readers(r, &ipi_cpus));
	smp_call_function_many(&ipi_cpus, tpt_reader, r, 0);
	for (i = 0; i < r->flips && !tpt_out_of_time(r); i++, r->done++) {
		tpt_flip(r, i);
		if (r->nmi_every && i % r->nmi_every == 0)
			nmi_send_all();
		if (readers && i % r->handshake_every == r->handshake_every - 1)
			tpt_handshake(r);
		/* Long runs (make stress) say how far they are. */
		if (r->flips >= 10000 && (i + 1) % (r->flips / 10) == 0)
			pr_info("text_patch: %u of %u flips, %d wrong branches\n",
				i + 1, r->flips, atomic_read(&r->violations) +
				atomic_read(&r->handshake_violations));
	}
	WRITE_ONCE(r->stop, true);
	while (atomic_read(&r->running))
		cpu_relax();
	for_each_online_cpu(cpu)
		loops += r->loops[cpu];
	for (i = 0; i < r->nr_keys; i++)
		if (r->state[i])
			static_branch_disable(r->keys[i].key);
	return loops;
}

static void tpt_expect_clean(struct kunit *test, struct tpt_run *r)
{
	KUNIT_EXPECT_FALSE_MSG(test, r->out_of_time,
			       "out of time: %u of %u flips in the budget",
			       r->done, r->flips);
	KUNIT_EXPECT_EQ(test, r->done, r->flips);
	KUNIT_EXPECT_EQ(test, atomic_read(&r->violations), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&r->handshake_violations), 0);
	KUNIT_EXPECT_EQ(test, r->wrong_sites, 0);
	KUNIT_EXPECT_EQ(test, r->wrong_results, 0);
}

/*
 * Keys of 1, 56 and 1,024 sites flipped while kmalloc() fails: the first
 * allocation of each flip, then every one. The queue applies what it holds
 * when it cannot grow, so a flip takes more batches, each of three sync
 * rounds, and every site still ends right. Readers on the other CPUs hit
 * the int3s of every batch: each must be emulated.
 */
static void tpt_test_alloc_failure(struct kunit *test)
{
	static const unsigned int fails[] = { 1, 1000 };
	struct tpt_run *r = &tpt_run;
	struct text_poke_stats before;
	unsigned long hits = text_poke_int3_hits(), passes;
	unsigned int f, batches, flushes;

	for (f = 0; f < ARRAY_SIZE(fails); f++) {
		memset(r, 0, sizeof(*r));
		r->keys = tpt_sized;
		r->nr_keys = ARRAY_SIZE(tpt_sized);
		r->flips = 4 * r->nr_keys;
		r->handshake_every = r->nr_keys;
		r->fail_allocs = fails[f];
		before = text_poke_stats;
		passes = tpt_run_flips(r, tpt_budget_s);
		tpt_expect_clean(test, r);
		batches = text_poke_stats.batches - before.batches;
		flushes = text_poke_stats.early_flushes - before.early_flushes;
		/* Each flip of the 56 and 1,024 sites flushed early. */
		KUNIT_EXPECT_GE(test, flushes, 8);
		KUNIT_EXPECT_EQ(test, batches, r->flips + flushes);
		KUNIT_EXPECT_EQ(test, text_poke_stats.sync_rounds,
				before.sync_rounds + 3 * batches);
		KUNIT_EXPECT_EQ(test, text_poke_stats.sites,
				before.sites + 4 * (1 + 56 + 1024));
		kunit_info(test, "%u failing allocations a flip: %u flips, %u batches (%u early), %lu reader passes",
			   fails[f], r->done, batches, flushes, passes);
	}
	kmalloc_fail_next(0);
	if (num_online_cpus() > 1)
		KUNIT_EXPECT_GT(test, text_poke_int3_hits(), hits);
}

/* Stress: many flips of 4 keys, readers on every other CPU. */
static void tpt_test_stress(struct kunit *test)
{
	struct tpt_run *r = &tpt_run;
	unsigned long hits = text_poke_int3_hits(), passes;
	unsigned long stale = text_poke_get_stats().stale_int3s;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs readers on other CPUs, booted with 1");
	memset(r, 0, sizeof(*r));
	r->keys = tpt_stress_keys;
	r->nr_keys = TPT_STRESS_KEYS;
	r->flips = tpt_flips;
	r->handshake_every = 500;
	passes = tpt_run_flips(r, tpt_budget_s);
	tpt_expect_clean(test, r);
	KUNIT_EXPECT_EQ(test, r->check_seq, r->flips / r->handshake_every);
	KUNIT_EXPECT_GT(test, passes, 0);
	KUNIT_EXPECT_GT(test, text_poke_int3_hits(), hits);
	kunit_info(test, "%u flips, %u readers, %lu reader passes, %d wrong branches, %lu int3 hits, %lu stale int3s run again",
		   r->done, num_online_cpus() - 1, passes,
		   atomic_read(&r->violations) +
		   atomic_read(&r->handshake_violations),
		   text_poke_int3_hits() - hits,
		   text_poke_get_stats().stale_int3s - stale);
}

/*
 * The stress with readers that come and go: of the other CPUs, one in
 * three runs /bin/uspin, which makes a system call every 200 turns of a
 * user-space loop and sleeps 1 ms every 50 calls (its CPU idle), the
 * sys_enter probe reading the keys right after each entry; one in three
 * runs a kthread that reads them and sleeps a tick (idle until the tick
 * wakes it); the rest read them in an IPI, in the kernel throughout. An
 * NMI to every CPU every 50 flips (and, under make stress, the periodic
 * NMI of nmi_watchdog=) reads them from NMI context too. Every reader
 * checks what it sees as the stress above does; the handshakes reach
 * each one through its own way in.
 */
static struct tpt_run *tpt_entry_run;
static atomic_t tpt_nmi_passes;

static void tpt_entry_read(struct tpt_run *r)
{
	unsigned int cpu = smp_processor_id();

	tpt_reader_pass(r);
	tpt_reader_handshake(r, cpu);
	r->loops[cpu]++;
}

static void tpt_sys_enter_probe(void *data, struct pt_regs *regs, long id)
{
	struct tpt_run *r = READ_ONCE(tpt_entry_run);

	if (r && !READ_ONCE(r->stop) && user_mode(regs))
		tpt_entry_read(r);
}

static void tpt_nmi_reader(struct pt_regs *regs)
{
	struct tpt_run *r = READ_ONCE(tpt_entry_run);

	if (r && !READ_ONCE(r->stop)) {
		tpt_reader_pass(r);
		atomic_inc(&tpt_nmi_passes);
	}
}

static struct nmi_handler tpt_nmi_handler = { .fn = tpt_nmi_reader };

static int tpt_idle_reader(void *data)
{
	struct tpt_run *r = data;

	while (!kthread_should_stop()) {
		if (!READ_ONCE(r->stop))
			tpt_entry_read(r);
		msleep(1);
	}
	return 0;
}

static void tpt_test_stress_entry(struct kunit *test)
{
	struct task_struct *idlers[NR_CPUS] = {};
	struct cpumask ipi_cpus, user_cpus;
	struct tpt_run *r = &tpt_run;
	struct text_sync_stats ts = text_sync_get_stats();
	unsigned long hits = text_poke_int3_hits(), passes, user = 0, idle = 0;
	unsigned long stale = text_poke_get_stats().stale_int3s;
	struct user_spin *us = kzalloc(sizeof(*us), GFP_KERNEL);
	unsigned int cpu, i = 0;
	int n;

	KUNIT_ASSERT_NOT_NULL(test, us);
	if (num_online_cpus() < 3) {
		kfree(us);
		kunit_skip(test, "needs a reader of each kind, booted with %u",
			   num_online_cpus());
	}
	memset(r, 0, sizeof(*r));
	r->keys = tpt_stress_keys;
	r->nr_keys = TPT_STRESS_KEYS;
	r->flips = tpt_entry_flips;
	r->handshake_every = 500;
	r->nmi_every = 50;
	r->ipi_cpus = &ipi_cpus;
	cpumask_clear(&ipi_cpus);
	cpumask_clear(&user_cpus);
	for_each_online_cpu(cpu) {
		if (cpu == smp_processor_id())
			continue;
		if (i % 3 == 0)
			cpumask_set_cpu(cpu, &user_cpus);
		else if (i % 3 == 2)
			cpumask_set_cpu(cpu, &ipi_cpus);
		else
			idlers[cpu] = kthread_run_on_cpu(tpt_idle_reader, r,
							 cpu, "tpt_idle/%u");
		i++;
	}
	WRITE_ONCE(tpt_entry_run, r);
	register_nmi_handler(&tpt_nmi_handler);
	KUNIT_ASSERT_EQ(test,
			register_trace_sys_enter(tpt_sys_enter_probe, NULL), 0);
	n = user_spin_start_on(us, &user_cpus, 200, 50);
	KUNIT_EXPECT_EQ(test, n, (int)cpumask_weight(&user_cpus));
	passes = tpt_run_flips(r, tpt_budget_s);
	user_spin_stop(us);
	unregister_trace_sys_enter(tpt_sys_enter_probe, NULL);
	unregister_nmi_handler(&tpt_nmi_handler);
	WRITE_ONCE(tpt_entry_run, NULL);
	for_each_possible_cpu(cpu)
		if (idlers[cpu] && !IS_ERR(idlers[cpu]))
			kthread_stop(idlers[cpu]);
	kfree(us);
	tpt_expect_clean(test, r);
	KUNIT_EXPECT_EQ(test, r->check_seq, r->flips / r->handshake_every);
	for_each_online_cpu(cpu) {
		if (cpumask_test_cpu(cpu, &user_cpus))
			user += r->loops[cpu];
		else if (idlers[cpu])
			idle += r->loops[cpu];
	}
	KUNIT_EXPECT_GT(test, user, 0);
	KUNIT_EXPECT_GT(test, idle, 0);
	KUNIT_EXPECT_GT(test, atomic_read(&tpt_nmi_passes), 0);
	KUNIT_EXPECT_GT(test, text_sync_get_stats().entry_syncs,
			ts.entry_syncs);
	KUNIT_EXPECT_GT(test, text_poke_int3_hits(), hits);
	kunit_info(test, "%u flips: %lu passes (%lu after system calls, %lu after idle, %d in NMIs), %d wrong branches, %lu entries serialized, %lu CPUs skipped by rounds, %lu stale int3s run again",
		   r->done, passes, user, idle, atomic_read(&tpt_nmi_passes),
		   atomic_read(&r->violations) +
			   atomic_read(&r->handshake_violations),
		   text_sync_get_stats().entry_syncs - ts.entry_syncs,
		   text_sync_get_stats().skipped - ts.skipped,
		   text_poke_get_stats().stale_int3s - stale);
}

/*
 * text_poke.park=auto|on|off: the setter takes exactly those words and
 * refuses any other, changing nothing; the value boot parsed (the command
 * line read again for it) decides, with CPUID, whether a batch parks the
 * other CPUs for its last write, and every batch then does or none does.
 */
static void tpt_test_park(struct kunit *test)
{
	static const char *const bad[] = { "", "maybe", "OFF", "on ", "1" };
	int mode = TEXT_POKE_PARK_AUTO, probe = TEXT_POKE_PARK_ON, i;
	struct kernel_param kp = { .name = "text_poke.park",
				   .set = text_poke_param_park,
				   .arg = &probe };
	struct text_poke_stats before = text_poke_stats;
	unsigned long batches, parked;
	bool want;

	KUNIT_EXPECT_EQ(test, text_poke_param_park("off", &kp), 0);
	KUNIT_EXPECT_EQ(test, probe, TEXT_POKE_PARK_OFF);
	KUNIT_EXPECT_EQ(test, text_poke_param_park("auto", &kp), 0);
	KUNIT_EXPECT_EQ(test, probe, TEXT_POKE_PARK_AUTO);
	KUNIT_EXPECT_EQ(test, text_poke_param_park("on", &kp), 0);
	KUNIT_EXPECT_EQ(test, probe, TEXT_POKE_PARK_ON);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		KUNIT_EXPECT_EQ(test, text_poke_param_park(bad[i], &kp),
				-EINVAL);
		KUNIT_EXPECT_EQ(test, probe, TEXT_POKE_PARK_ON);
	}

	kp.arg = &mode;
	KUNIT_ASSERT_GE(test, parse_args_for(saved_command_line, &kp), 0);
	want = mode == TEXT_POKE_PARK_ON ||
	       (mode == TEXT_POKE_PARK_AUTO && text_poke_under_tcg());
	KUNIT_EXPECT_EQ(test, text_poke_parks(), want);

	static_branch_enable(&tpt_one);
	KUNIT_EXPECT_EQ(test, tpt_one_fn(), 1);
	static_branch_disable(&tpt_one);
	KUNIT_EXPECT_EQ(test, tpt_one_fn(), 0);
	batches = text_poke_stats.batches - before.batches;
	parked = text_poke_stats.parked_rounds - before.parked_rounds;
	KUNIT_EXPECT_GE(test, batches, 2);
	/* One CPU online has no one to park (text_sync_alone). */
	KUNIT_EXPECT_EQ(test, parked,
			want && num_online_cpus() > 1 ? batches : 0);
	KUNIT_EXPECT_EQ(test, text_poke_stats.sync_rounds - before.sync_rounds,
			3 * batches);
	kunit_info(test, "text_poke.park mode %d, %s TCG: %lu of %lu batches parked",
		   mode, text_poke_under_tcg() ? "under" : "not under", parked,
		   batches);
}

/*
 * text_poke_finish_nx(): sites in memory mapped NX (a kmalloc() buffer of
 * the direct map stands for a module's text before its protections) are
 * written in one pass, no batch, no sync round; a queue with one site in
 * executable text is applied as a batch of three rounds, all of it.
 */
static void tpt_test_finish_nx(struct kunit *test)
{
	static const u8 jmp5[5] = { 0xe9, 0x10, 0x00, 0x00, 0x00 };
	static const u8 nop2[2] = { 0x66, 0x90 };
	u8 *code = (u8 *)tpt_one_fn, same[1] = { code[0] };
	u8 *buf = kzalloc(64, GFP_KERNEL);
	struct text_poke_stats st;
	unsigned long warns;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	st = text_poke_stats;
	mutex_lock(&text_mutex);
	text_poke_queue(buf + 32, nop2, sizeof(nop2));
	text_poke_queue(buf, jmp5, sizeof(jmp5));
	text_poke_finish_nx();
	mutex_unlock(&text_mutex);
	KUNIT_EXPECT_EQ(test, memcmp(buf, jmp5, sizeof(jmp5)), 0);
	KUNIT_EXPECT_EQ(test, memcmp(buf + 32, nop2, sizeof(nop2)), 0);
	KUNIT_EXPECT_EQ(test, text_poke_stats.sync_rounds - st.sync_rounds, 0);
	KUNIT_EXPECT_EQ(test, text_poke_stats.batches - st.batches, 0);
	KUNIT_EXPECT_EQ(test, text_poke_stats.nx_sites - st.nx_sites, 2);
	KUNIT_EXPECT_EQ(test, text_poke_stats.sites - st.sites, 2);

	memset(buf, 0, 64);
	st = text_poke_stats;
	warns = nr_warnings;
	cpus_read_lock(); /* a batch's rule */
	mutex_lock(&text_mutex);
	text_poke_queue(buf, jmp5, sizeof(jmp5));
	text_poke_queue(code, same, sizeof(same));
	text_poke_finish_nx();
	mutex_unlock(&text_mutex);
	cpus_read_unlock();
	KUNIT_EXPECT_EQ(test, nr_warnings, warns);
	KUNIT_EXPECT_EQ(test, memcmp(buf, jmp5, sizeof(jmp5)), 0);
	KUNIT_EXPECT_EQ(test, text_poke_stats.sync_rounds - st.sync_rounds, 3);
	KUNIT_EXPECT_EQ(test, text_poke_stats.batches - st.batches, 1);
	KUNIT_EXPECT_EQ(test, text_poke_stats.nx_sites - st.nx_sites, 0);
	KUNIT_EXPECT_EQ(test, tpt_one_fn(), 0);
	kfree(buf);
}

static struct kunit_case tpt_cases[] = {
	KUNIT_CASE(tpt_test_text_lock),
	KUNIT_CASE(tpt_test_int3_emulation),
	KUNIT_CASE(tpt_test_int3_hooks),
	KUNIT_CASE(tpt_test_int3_stale),
	KUNIT_CASE(tpt_test_big_batched),
	KUNIT_CASE(tpt_test_56_unbatched),
	KUNIT_CASE(tpt_test_alloc_failure),
	KUNIT_CASE(tpt_test_finish_nx),
	KUNIT_CASE(tpt_test_park),
	KUNIT_CASE_SLOW(tpt_test_stress),
	KUNIT_CASE_SLOW(tpt_test_stress_entry),
	{}
};

static struct kunit_suite tpt_suite = {
	.name = "text_patch",
	.test_cases = tpt_cases,
};
kunit_test_suite(tpt_suite);
