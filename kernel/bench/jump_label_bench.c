// SPDX-License-Identifier: GPL-2.0
/*
 * Static key benchmarks (bench=GLOB on the command line; scripts/bench.py
 * runs them under QEMU -icount, where they count instructions). The same
 * file builds with CONFIG_JUMP_LABEL=y and =n, so the host can put the two
 * side by side; the figures that only exist with patching are skipped
 * with =n.
 */
#include <linux/kernel.h>
#include <linux/bench.h>
#include <linux/delay.h>
#include <linux/jump_label.h>
#include <linux/jump_label_arch.h>
#include <linux/jump_label_ratelimit.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/text-patching.h>
#include <asm/text-patching-stats.h>
#include <asm/text-sync.h>
#include <asm/traps.h>
#include <fixtures/cpus_held.h>
#include <fixtures/user_spin.h>

#define BENCH_CALLS 10000

DEFINE_STATIC_KEY_FALSE(jlb_site);
static int jlb_value;
static int jlb_rare_hits;

static noinline int jlb_rare(void)
{
	return ++jlb_rare_hits;
}

/* The small function: one rare-path branch, then the common work. */
static noinline int jlb_site_fn(void)
{
	if (static_branch_unlikely(&jlb_site))
		jlb_rare();
	return READ_ONCE(jlb_value);
}

static noinline int jlb_absent_fn(void)
{
	return READ_ONCE(jlb_value);
}

static void bench_site(void)
{
	bench_report("site_absent_insns", "",
		     bench_per_call_x100(jlb_absent_fn, BENCH_CALLS), "insns");
	bench_report("site_disabled_insns", "",
		     bench_per_call_x100(jlb_site_fn, BENCH_CALLS), "insns");
	static_branch_enable(&jlb_site);
	bench_report("site_enabled_insns", "",
		     bench_per_call_x100(jlb_site_fn, BENCH_CALLS), "insns");
	static_branch_disable(&jlb_site);
}
bench_case("site", bench_site);

/*
 * A getppid()-like fast path with an audit-style rare branch: its size in
 * the image (the host reads it with nm) is fastpath_bytes.
 */
struct jlb_task {
	struct jlb_task *real_parent;
	int tgid;
};

static struct jlb_task jlb_parent = { .tgid = 1 };
static struct jlb_task jlb_task = { .real_parent = &jlb_parent, .tgid = 2 };
static struct jlb_task *jlb_current = &jlb_task;
DEFINE_STATIC_KEY_FALSE(jlb_audit);

static noinline void jlb_audit_getppid(struct jlb_task *t)
{
	jlb_rare_hits += t->tgid;
}

int jlb_getppid(void);
noinline int jlb_getppid(void)
{
	struct jlb_task *t = READ_ONCE(jlb_current);

	if (static_branch_unlikely(&jlb_audit))
		jlb_audit_getppid(t);
	return READ_ONCE(t->real_parent)->tgid;
}

static void bench_getppid(void)
{
	bench_report("getppid_insns", "",
		     bench_per_call_x100(jlb_getppid, BENCH_CALLS), "insns");
}
bench_case("getppid", bench_getppid);

/* inc + dec of an enabled key: the lockless fast paths. */
static int jlb_inc_dec(void)
{
	static_branch_inc(&jlb_site);
	static_branch_dec(&jlb_site);
	return 0;
}

static void bench_inc_fast(void)
{
	static_branch_enable(&jlb_site);
	bench_report("inc_fast_insns", "",
		     bench_per_call_x100(jlb_inc_dec, BENCH_CALLS), "insns");
	static_branch_disable(&jlb_site);
}
bench_case("inc_fast", bench_inc_fast);

#ifdef CONFIG_JUMP_LABEL
static int jlb_flip_key(struct static_key *key);

/*
 * The share of 2-byte sites among the sites written by hand: the keys of
 * generated sites (the flip benchmarks', the tests' 1,024-site key) have
 * dozens to thousands of sites in one function, whose out-of-line blocks
 * all end up far away, so they are left out. The rest is real code.
 */
static void jlb_short_share_written(void)
{
	struct jump_entry *first, *next, *e;
	unsigned int sites = 0, shorts = 0;

	for_each_jump_key(first, next, __start___jump_table,
			  __stop___jump_table) {
		if (next - first > 16 || jlb_flip_key(jump_entry_key(first)))
			continue;
		for (e = first; e < next; e++) {
			if (jump_entry_is_init(e)) /* freed by now */
				continue;
			shorts += arch_jump_entry_is_short(e);
			sites++;
		}
	}
	bench_report("short_site_share", "keys of <= 16 sites", sites ?
		     10000ULL * shorts / sites : 0, "%");
	bench_report("short_sites", "keys of <= 16 sites", 100ULL * shorts,
		     "sites");
	bench_report("long_sites", "keys of <= 16 sites",
		     100ULL * (sites - shorts), "sites");
}

static void bench_table(void)
{
	struct jump_label_stats *s = &jump_label_stats;
	u64 entry = sizeof(struct jump_entry);

	bench_report("entry_bytes", "", 100 * entry, "bytes");
	bench_report("table_bytes", "", 100 * entry * s->entries, "bytes");
	bench_report("table_entries", "", 100ULL * s->entries, "entries");
	bench_report("short_site_share", "all sites", s->entries ?
		     10000ULL * s->short_sites / s->entries : 0, "%");
	jlb_short_share_written();
	bench_report("init_insns", "", 100 * s->init_cycles, "insns");
	bench_report("init_insns_per_entry", "", s->entries ?
		     100 * s->init_cycles / s->entries : 0, "insns");
}
bench_case("table", bench_table);

/*
 * Keys with 1, 4, 56, 256 and 1,024 sites; each function runs all of one.
 * The 4-site key matches the small key of Linux's column (make bench-linux).
 */
#define JLB_S1(k) n += static_branch_unlikely(&k);
#define JLB_S8(k) JLB_S1(k) JLB_S1(k) JLB_S1(k) JLB_S1(k) \
		  JLB_S1(k) JLB_S1(k) JLB_S1(k) JLB_S1(k)
#define JLB_S56(k) JLB_S8(k) JLB_S8(k) JLB_S8(k) JLB_S8(k) \
		   JLB_S8(k) JLB_S8(k) JLB_S8(k)
#define JLB_S64(k) JLB_S56(k) JLB_S8(k)
#define JLB_S256(k) JLB_S64(k) JLB_S64(k) JLB_S64(k) JLB_S64(k)
#define JLB_FLIP_KEY(nr, body)                                          \
	DEFINE_STATIC_KEY_FALSE(jlb_flip##nr);                          \
	static noinline BENCH_SITES_JLB##nr int jlb_flip##nr##_fn(void) \
	{                                                               \
		int n = 0;                                              \
									\
		body                                                    \
		return n;                                               \
	}

JLB_FLIP_KEY(1, JLB_S1(jlb_flip1))
JLB_FLIP_KEY(4, JLB_S1(jlb_flip4) JLB_S1(jlb_flip4) JLB_S1(jlb_flip4)
		 JLB_S1(jlb_flip4))
JLB_FLIP_KEY(56, JLB_S56(jlb_flip56))
JLB_FLIP_KEY(256, JLB_S256(jlb_flip256))
JLB_FLIP_KEY(1024, JLB_S256(jlb_flip1024) JLB_S256(jlb_flip1024)
		   JLB_S256(jlb_flip1024) JLB_S256(jlb_flip1024))

static const struct {
	struct static_key_false *key;
	int (*fn)(void);
	unsigned int sites;
} jlb_flips[] = {
	{ &jlb_flip1, jlb_flip1_fn, 1 },
	{ &jlb_flip4, jlb_flip4_fn, 4 },
	{ &jlb_flip56, jlb_flip56_fn, 56 },
	{ &jlb_flip256, jlb_flip256_fn, 256 },
	{ &jlb_flip1024, jlb_flip1024_fn, 1024 },
};

static int jlb_flip_key(struct static_key *key)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(jlb_flips); i++)
		if (&jlb_flips[i].key->key == key)
			return 1;
	return 0;
}

/* One enable and one disable; figures per flip. */
static void bench_flip_one(unsigned int i, bool batched)
{
	struct text_poke_stats before = text_poke_get_stats();
	unsigned long ipis = smp_stats.ipis_sent;
	u64 empty = bench_empty_region(), t0, t;
	char params[64];

	text_poke_batching = batched;
	t0 = bench_cycles();
	static_branch_enable(jlb_flips[i].key);
	static_branch_disable(jlb_flips[i].key);
	t = bench_cycles() - t0 - empty;
	text_poke_batching = true;
	snprintf(params, sizeof(params), "sites=%u,%s,cpus=%u",
		 jlb_flips[i].sites, batched ? "batched" : "unbatched",
		 num_online_cpus());
	bench_report("flip_insns", params, 50 * t, "insns");
	bench_report(
		"flip_sync_rounds", params,
		50 * (text_poke_get_stats().sync_rounds - before.sync_rounds),
		"rounds");
	bench_report("flip_ipis", params, 50 * (smp_stats.ipis_sent - ipis),
		     "IPIs");
}

/*
 * flip_ipis of the 56-site batched flip with the other CPUs idle, in
 * user-space loops (/bin/uspin) or in the kernel (readers of the key,
 * held in an IPI): a sync round interrupts only the CPUs in the kernel
 * (<asm/text-sync.h>). Each figure is reported only once the CPUs are
 * where its params say.
 */
static void jlb_flip_ipis(const char *where, unsigned int n)
{
	unsigned long ipis = smp_stats.ipis_sent;
	char params[64];

	static_branch_enable(jlb_flips[2].key);
	static_branch_disable(jlb_flips[2].key);
	snprintf(params, sizeof(params), "sites=56,batched,cpus=%u,%s=%u",
		 num_online_cpus(), where, n);
	bench_report("flip_ipis", params, 50 * (smp_stats.ipis_sent - ipis),
		     "IPIs");
}

static bool jlb_others_idle(void)
{
	unsigned int cpu, ms;
	bool idle = false;

	for (ms = 0; ms < 1000 && !idle; ms++) {
		idle = true;
		for_each_online_cpu(cpu)
			if (cpu != smp_processor_id() &&
			    text_sync_state(cpu) != CT_IDLE)
				idle = false;
		if (!idle)
			mdelay(1);
	}
	return idle;
}

static void bench_flip_where(void)
{
	unsigned int others = num_online_cpus() - 1;
	struct cpus_held held = { .fn = jlb_flip56_fn };
	static struct user_spin us;
	int n;

	if (!others)
		return;
	if (jlb_others_idle())
		jlb_flip_ipis("idle", others);
	else
		pr_err("bench: the other CPUs are not idle: no idle= figure\n");
	n = user_spin_start(&us, 0, 0);
	if (n == others)
		jlb_flip_ipis("user", n);
	else
		pr_err("bench: /bin/uspin on %u CPUs: %d: no user= figure\n",
		       others, n);
	user_spin_stop(&us);
	n = cpus_hold(&held);
	if (n == others)
		jlb_flip_ipis("readers", n);
	cpus_release(&held);
}

static void bench_flip(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(jlb_flips); i++) {
		bench_flip_one(i, true);
		bench_flip_one(i, false);
	}
	bench_flip_where();
}
bench_case("flip", bench_flip);

/*
 * Where a flip's instructions go: an enable and a disable of the 1- and
 * the 1,024-site key single-stepped (arch/x86/bench/bench_step.c), per
 * function, per flip. flip_stepped_insns is the whole of it, the step
 * session's own edges subtracted; it matches flip_insns within those
 * edges. A function of the session itself (bench_*) is left out.
 */
struct jlb_flip_step {
	unsigned int sites;
};

static void jlb_flip_fn_report(const struct bench_step_func *f, void *priv)
{
	const struct jlb_flip_step *fs = priv;
	char params[80];

	if (!strncmp(f->name, "bench_", 6))
		return;
	snprintf(params, sizeof(params), "sites=%u,fn=%s", fs->sites, f->name);
	bench_report("flip_fn_insns", params, 50 * f->c.insns, "insns");
}

static void bench_flip_fn_one(unsigned int i)
{
	struct jlb_flip_step fs = { .sites = jlb_flips[i].sites };
	struct bench_step_counts empty, c;
	char params[32];

	/* A session around nothing: its own edges, to subtract. */
	if (bench_step_start())
		return;
	bench_step_stop(&empty);
	if (bench_step_start())
		return;
	static_branch_enable(jlb_flips[i].key);
	static_branch_disable(jlb_flips[i].key);
	bench_step_stop(&c);
	snprintf(params, sizeof(params), "sites=%u", fs.sites);
	bench_report("flip_stepped_insns", params, 50 * (c.insns - empty.insns),
		     "insns");
	bench_step_funcs(jlb_flip_fn_report, &fs);
}

static void bench_flip_fn(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(jlb_flips); i++)
		if (jlb_flips[i].sites == 1 || jlb_flips[i].sites == 1024)
			bench_flip_fn_one(i);
}
bench_case("flip_fn", bench_flip_fn);

/*
 * int3 cost: with int3 on every site of the batch, one run of the key's
 * function traps on each site; compared with a run after the flip, when
 * the same sites are plain JMPs, the difference per site is one int3 hit.
 */
static struct {
	int (*fn)(void);
	u64 trapped;
} jlb_int3;

static void jlb_int3_hook(enum text_poke_step step)
{
	u64 empty = bench_empty_region(), t0;

	if (step != TEXT_POKE_INT3_WRITTEN)
		return;
	t0 = bench_cycles();
	jlb_int3.fn();
	jlb_int3.trapped = bench_cycles() - t0 - empty;
}

static void bench_int3_one(unsigned int i, u64 trap_x100)
{
	u64 empty, t0, plain, hit_x100;
	char params[32];

	jlb_int3.fn = jlb_flips[i].fn;
	text_poke_test_hook = jlb_int3_hook;
	static_branch_enable(jlb_flips[i].key);
	text_poke_test_hook = NULL;
	empty = bench_empty_region();
	t0 = bench_cycles();
	jlb_flips[i].fn();
	plain = bench_cycles() - t0 - empty;
	static_branch_disable(jlb_flips[i].key);
	snprintf(params, sizeof(params), "batch=%u", jlb_flips[i].sites);
	hit_x100 = jlb_int3.trapped > plain ?
		   100 * (jlb_int3.trapped - plain) / jlb_flips[i].sites : 0;
	bench_report("int3_insns", params, hit_x100, "insns");
	bench_report("int3_handler_insns", params,
		     hit_x100 > trap_x100 ? hit_x100 - trap_x100 : 0, "insns");
}

/*
 * The trap alone: an int3 that a trivial hook, registered first, claims.
 * Exception entry, the hook walk and the return: int3_insns less this is
 * the cost of the batch handler itself.
 */
extern const char jlb_bare_int3_ip[];

static noinline int jlb_bare_int3(void)
{
	asm volatile(".globl jlb_bare_int3_ip\n\t"
		     "int3\n"
		     "jlb_bare_int3_ip:" ::: "memory");
	return 0;
}

static bool jlb_bare_int3_hook(struct pt_regs *regs)
{
	return regs->ip == (unsigned long)jlb_bare_int3_ip;
}

static u64 jlb_int3_trap_x100(void)
{
	static struct int3_hook hook = { .handler = jlb_bare_int3_hook };
	u64 x100;

	register_int3_hook(&hook);
	x100 = bench_per_call_x100(jlb_bare_int3, BENCH_CALLS);
	unregister_int3_hook(&hook);
	return x100 - bench_per_call_x100(jlb_absent_fn, BENCH_CALLS);
}

static void bench_int3(void)
{
	u64 trap = jlb_int3_trap_x100();
	unsigned int i;

	bench_report("int3_trap_insns", "", trap, "insns");
	for (i = 0; i < ARRAY_SIZE(jlb_flips); i++)
		if (jlb_flips[i].sites != 256)
			bench_int3_one(i, trap);
}
bench_case("int3", bench_int3);

/*
 * deferred_storm_batches: text-patch batches during a storm of inc/dec
 * pairs on a deferred key. Benches boot with tick=off, so jiffies stand
 * still and no timer fires: time is driven by hand. Each pair takes one
 * virtual jiffy; once the virtual clock reaches the deadline of the
 * pending dec (its timeout after the dec that queued the work), the
 * storm flushes it, which is what the timer would have done. rl=0 is
 * flushed after the pair that queued it.
 */
#define JLB_STORM_PAIRS 1000

static DEFINE_STATIC_KEY_DEFERRED_FALSE(jlb_deferred, 0);

static noinline int jlb_deferred_fn(void)
{
	return static_branch_unlikely(&jlb_deferred.key) ? 1 : 0;
}

static unsigned long jlb_deferred_storm(unsigned long rl, unsigned int pairs)
{
	unsigned long before = text_poke_get_stats().batches, deadline = 0;
	bool armed = false;
	unsigned int now;

	jlb_deferred.timeout = rl;
	for (now = 0; now < pairs; now++) {
		static_branch_deferred_inc(&jlb_deferred);
		jlb_value += jlb_deferred_fn();
		static_branch_slow_dec_deferred(&jlb_deferred);
		if (!armed && delayed_work_pending(&jlb_deferred.work)) {
			armed = true;
			deadline = now + rl;
		}
		if (armed && now >= deadline) {
			static_key_deferred_flush(&jlb_deferred);
			armed = false;
		}
	}
	static_key_deferred_flush(&jlb_deferred);
	return text_poke_get_stats().batches - before;
}

static void bench_deferred(void)
{
	char params[48];

	snprintf(params, sizeof(params), "rl=0,pairs=%u", JLB_STORM_PAIRS);
	bench_report("deferred_storm_batches", params,
		     100ULL * jlb_deferred_storm(0, JLB_STORM_PAIRS), "batches");
	snprintf(params, sizeof(params), "rl=HZ/10,pairs=%u", JLB_STORM_PAIRS);
	bench_report("deferred_storm_batches", params,
		     100ULL * jlb_deferred_storm(HZ / 10, JLB_STORM_PAIRS),
		     "batches");
}
bench_case("deferred", bench_deferred);

#else /* !CONFIG_JUMP_LABEL: no table, nothing to patch */

static void bench_table(void)
{
	bench_report("table_bytes", "", 0, "bytes");
	bench_report("table_entries", "", 0, "entries");
}
bench_case("table", bench_table);

#endif /* CONFIG_JUMP_LABEL */
