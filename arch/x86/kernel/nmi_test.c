// SPDX-License-Identifier: GPL-2.0
/*
 * Suite "nmi" (boot with 4 CPUs): NMIs reach every CPU and run their
 * handlers with this CPU's %gs, also from the window where %gs is the
 * user's in kernel mode; NMI handlers pass static branch sites and a
 * static call while batches patch them, on CPUs in the kernel, idle and
 * in user mode, so that the int3 handler runs in NMI context on every
 * CPU; and an int3 taken inside an NMI taken inside the int3 handler is
 * emulated, with NMIs still blocked after it returns (ret_in_nmi); the
 * periodic NMI of nmi_watchdog= reaches every CPU.
 *
 * Every wait is bounded (a second, or the case's budget): a CPU that does
 * not answer fails the case with a message, it does not hang it.
 */
#include <linux/kernel.h>
#include <linux/delay.h>
#include <linux/jump_label.h>
#include <linux/smp.h>
#include <linux/static_call.h>
#include <linux/text-patching.h>
#include <asm/apic.h>
#include <asm/nmi.h>
#include <asm/processor.h>
#include <asm/smp.h>
#include <asm/text-patching-stats.h>
#include <asm/text-sync.h>
#include <asm/traps.h>
#include <asm/tsc.h>
#include <asm/user.h>
#include <fixtures/user_spin.h>
#include <kunit/test.h>

#define NMT_FLIPS 40

DEFINE_STATIC_KEY_FALSE(nmt_key);

static int nmt_add1(int x)
{
	return x + 1;
}

static int nmt_add2(int x)
{
	return x + 2;
}

DEFINE_STATIC_CALL(nmt_call, nmt_add1);

/* Two sites of nmt_key, one of each macro: 0 when off, 3 when on. */
static noinline int nmt_sites(void)
{
	int n = static_branch_unlikely(&nmt_key) ? 1 : 0;

	if (static_branch_likely(&nmt_key)) {
		asm volatile(".skip 160, 0x90");
		n += 2;
	}
	return n;
}

/* What each CPU's NMIs saw: written in NMI context, read after. */
struct nmt_cpu {
	unsigned long runs, user, idle;
	unsigned long gs_bad, depth_bad, bad_call, bad_sites;
	/* The nested case: the int3 hook's request and what came of it. */
	bool nest_want, nest_inside, nest_second;
	unsigned long nest_nmis, nest_blocked;
};

static struct nmt_cpu nmt_cpus[NR_CPUS];
static bool nmt_armed, nmt_in_flight;
static int nmt_key_state, nmt_call_state; /* 0: off / add1 */
static u64 nmt_gs_seen; /* the GS window case: the handler's GS base */
static int nmt_gs_cpu = -1;

/* A raw self-NMI, safe where the interrupted code is not in the ICR. */
static void nmt_self_nmi(void)
{
	while (apic_read(APIC_ICR) & APIC_ICR_BUSY)
		cpu_relax();
	apic_write(APIC_ICR2, read_apic_id() << 24);
	apic_write(APIC_ICR, APIC_DM_NMI | APIC_INT_ASSERT);
}

static bool nmt_wait_count(unsigned int cpu, unsigned long want, u64 cycles)
{
	u64 end = rdtsc() + cycles;

	while (nmi_count(cpu) < want)
		if (rdtsc() > end)
			return false;
		else
			cpu_relax();
	return true;
}

/* The nested case, inside the NMI the int3 hook raised. */
static void nmt_nested(struct nmt_cpu *c, unsigned int cpu)
{
	unsigned long count = nmi_count(cpu);

	WRITE_ONCE(c->nest_inside, false);
	c->nest_nmis++;
	if (nmt_sites() != 0 && nmt_sites() != 3)
		c->bad_sites++;
	/* After that int3's return NMIs must still be blocked. */
	WRITE_ONCE(c->nest_second, true);
	nmt_self_nmi();
	if (!nmt_wait_count(cpu, count + 1, 20ULL * tsc_khz))
		c->nest_blocked++;
}

static void nmt_nmi(struct pt_regs *regs)
{
	unsigned int cpu = smp_processor_id();
	struct nmt_cpu *c = &nmt_cpus[cpu];
	int sites, r;

	if (!READ_ONCE(nmt_armed))
		return;
	if (READ_ONCE(nmt_gs_cpu) == cpu)
		WRITE_ONCE(nmt_gs_seen, rdmsr(MSR_GS_BASE));
	c->runs++;
	if (rdmsr(MSR_GS_BASE) != per_cpu_offset(cpu))
		c->gs_bad++;
	if (this_cpu_read(nmi_depth) != 1 || text_sync_state(cpu) != CT_KERNEL)
		c->depth_bad++;
	if (user_mode(regs))
		c->user++;
	else if (regs->ip - (unsigned long)&arch_cpu_idle_halt < 64)
		c->idle++;
	sites = nmt_sites();
	r = static_call(nmt_call)(10);
	if (!READ_ONCE(nmt_in_flight)) {
		if (sites != 3 * READ_ONCE(nmt_key_state))
			c->bad_sites++;
		if (r != 11 + READ_ONCE(nmt_call_state))
			c->bad_call++;
	} else {
		if (sites != 0 && sites != 3)
			c->bad_sites++;
		if (r != 11 && r != 12)
			c->bad_call++;
	}
	if (READ_ONCE(c->nest_inside))
		nmt_nested(c, cpu);
}

static struct nmi_handler nmt_handler = { .fn = nmt_nmi };

static int nmt_init(struct kunit *test)
{
	memset(nmt_cpus, 0, sizeof(nmt_cpus));
	nmt_key_state = static_key_enabled(&nmt_key);
	register_nmi_handler(&nmt_handler);
	WRITE_ONCE(nmt_armed, true);
	return 0;
}

static void nmt_exit(struct kunit *test)
{
	WRITE_ONCE(nmt_armed, false);
	unregister_nmi_handler(&nmt_handler);
}

/* NMIs to every online CPU; true once each ran the handler again. */
static bool nmt_fire_all(void)
{
	unsigned long want[NR_CPUS];
	unsigned int cpu;
	u64 end = rdtsc() + 1000ULL * tsc_khz;

	for_each_online_cpu(cpu)
		want[cpu] = READ_ONCE(nmt_cpus[cpu].runs) + 1;
	nmi_send_all();
	for_each_online_cpu(cpu)
		while (READ_ONCE(nmt_cpus[cpu].runs) < want[cpu])
			if (rdtsc() > end)
				return false;
			else
				cpu_relax();
	return true;
}

static void nmt_expect_clean(struct kunit *test)
{
	unsigned int cpu;

	for_each_online_cpu(cpu) {
		struct nmt_cpu *c = &nmt_cpus[cpu];

		KUNIT_EXPECT_EQ_MSG(test, c->gs_bad, 0, "CPU%u", cpu);
		KUNIT_EXPECT_EQ_MSG(test, c->depth_bad, 0, "CPU%u", cpu);
		KUNIT_EXPECT_EQ_MSG(test, c->bad_sites, 0, "CPU%u", cpu);
		KUNIT_EXPECT_EQ_MSG(test, c->bad_call, 0, "CPU%u", cpu);
	}
}

/* Every CPU takes the NMI IPI, counted, with its own %gs. */
static void nmt_test_ipi(struct kunit *test)
{
	unsigned long before[NR_CPUS];
	unsigned int cpu;

	for_each_online_cpu(cpu)
		before[cpu] = nmi_count(cpu);
	KUNIT_ASSERT_TRUE(test, nmt_fire_all());
	for_each_online_cpu(cpu) {
		KUNIT_EXPECT_GT_MSG(test, nmi_count(cpu), before[cpu], "CPU%u",
				    cpu);
		KUNIT_EXPECT_GE_MSG(test, nmt_cpus[cpu].runs, 1, "CPU%u", cpu);
	}
	KUNIT_EXPECT_FALSE(test, in_nmi());
	nmt_expect_clean(test);
}

/*
 * An NMI while %gs holds the user's base in kernel mode, as between
 * SYSCALL and its swapgs: this CPU swaps, raises the NMI with plain MMIO
 * writes, waits for it (a global counter: no per-CPU access meanwhile)
 * and swaps back. The handler must have run on this CPU's %gs.
 */
static noinline bool nmt_nmi_with_user_gs(unsigned int cpu)
{
	unsigned long want = nmt_cpus[cpu].runs + 1;
	u64 end = rdtsc() + 1000ULL * tsc_khz;
	bool ok = true;

	local_irq_disable();
	asm volatile("swapgs" ::: "memory");
	nmt_self_nmi();
	while (READ_ONCE(nmt_cpus[cpu].runs) < want)
		if (rdtsc() > end) {
			ok = false;
			break;
		}
	asm volatile("swapgs" ::: "memory");
	local_irq_enable();
	return ok;
}

static void nmt_test_user_gs(struct kunit *test)
{
	unsigned int cpu = smp_processor_id();
	u64 user_gs = rdmsr(0xc0000102); /* MSR_KERNEL_GS_BASE */

	KUNIT_ASSERT_NE(test, user_gs, per_cpu_offset(cpu));
	WRITE_ONCE(nmt_gs_cpu, cpu);
	KUNIT_EXPECT_TRUE(test, nmt_nmi_with_user_gs(cpu));
	WRITE_ONCE(nmt_gs_cpu, -1);
	KUNIT_EXPECT_EQ(test, nmt_gs_seen, (u64)per_cpu_offset(cpu));
	KUNIT_EXPECT_EQ(test, rdmsr(MSR_GS_BASE), (u64)per_cpu_offset(cpu));
	KUNIT_EXPECT_EQ(test, rdmsr(0xc0000102), user_gs);
	nmt_expect_clean(test);
}

/* After the int3 pass of each batch: an NMI on every CPU. */
static bool nmt_hook_ok;

static void nmt_fire_hook(enum text_poke_step step)
{
	if (step == TEXT_POKE_INT3_WRITTEN && !nmt_fire_all())
		nmt_hook_ok = false;
}

static void nmt_flips(struct kunit *test, unsigned int flips)
{
	unsigned int i;

	nmt_hook_ok = true;
	text_poke_test_hook = nmt_fire_hook;
	for (i = 0; i < flips; i++) {
		WRITE_ONCE(nmt_in_flight, true);
		if (i % 2) {
			static_call_update(nmt_call, nmt_call_state ? nmt_add1 :
								      nmt_add2);
			WRITE_ONCE(nmt_call_state, !nmt_call_state);
		} else if (nmt_key_state) {
			static_branch_disable(&nmt_key);
			WRITE_ONCE(nmt_key_state, 0);
		} else {
			static_branch_enable(&nmt_key);
			WRITE_ONCE(nmt_key_state, 1);
		}
		WRITE_ONCE(nmt_in_flight, false);
	}
	text_poke_test_hook = NULL;
	KUNIT_EXPECT_TRUE_MSG(test, nmt_hook_ok,
			      "a CPU did not take its NMI within a second");
	KUNIT_EXPECT_TRUE(test, nmt_fire_all()); /* and after: exact results */
}

/*
 * Batches of nmt_key and of nmt_call with an NMI on every CPU while int3
 * is on the sites: first with the other CPUs idle, then in user mode.
 * Each CPU's handler traps at the sites and the int3 handler emulates
 * them in NMI context.
 */
static void nmt_test_batches(struct kunit *test)
{
	unsigned long hits[NR_CPUS];
	struct user_spin *us = kzalloc(sizeof(*us), GFP_KERNEL);
	unsigned int cpu, self = smp_processor_id();
	int n;

	KUNIT_ASSERT_NOT_NULL(test, us);
	for_each_online_cpu(cpu)
		hits[cpu] = text_poke_cpu_int3_nmi_hits(cpu);
	nmt_flips(test, NMT_FLIPS);
	n = user_spin_start(us, 0, 0);
	KUNIT_EXPECT_EQ(test, n, (int)num_online_cpus() - 1);
	if (n >= 0)
		nmt_flips(test, NMT_FLIPS);
	user_spin_stop(us);
	kfree(us);
	for_each_online_cpu(cpu) {
		KUNIT_EXPECT_GT_MSG(test, text_poke_cpu_int3_nmi_hits(cpu),
				    hits[cpu], "CPU%u: no int3 in NMI context",
				    cpu);
		if (cpu == self)
			continue;
		KUNIT_EXPECT_GT_MSG(test, nmt_cpus[cpu].user, 0,
				    "CPU%u: no NMI from user mode", cpu);
		KUNIT_EXPECT_GT_MSG(test, nmt_cpus[cpu].idle, 0,
				    "CPU%u: no NMI from the idle halt", cpu);
	}
	nmt_expect_clean(test);
	kunit_info(test, "%u flips, %lu NMIs on CPU1, %lu from user mode",
		   2 * NMT_FLIPS, nmt_cpus[1 % NR_CPUS].runs,
		   nmt_cpus[1 % NR_CPUS].user);
}

/*
 * The int3 handler, nested: on every CPU (an IPI from the patcher while
 * int3 is on the sites) a site traps; an int3 hook ahead of the engine's
 * raises an NMI and waits for it inside the trap; the NMI's handler
 * traps at the sites again (int3 in NMI in int3), then raises a second
 * NMI, which must wait until the first one's iretq.
 */
static bool nmt_int3_hook(struct pt_regs *regs)
{
	unsigned int cpu;
	struct nmt_cpu *c;
	unsigned long count;

	if (in_nmi())
		return false;
	cpu = smp_processor_id();
	c = &nmt_cpus[cpu];
	if (!READ_ONCE(c->nest_want))
		return false;
	WRITE_ONCE(c->nest_want, false);
	count = nmi_count(cpu);
	WRITE_ONCE(c->nest_inside, true);
	nmt_self_nmi();
	nmt_wait_count(cpu, count + 2, 1000ULL * tsc_khz);
	return false; /* the engine's handler emulates this one */
}

static struct int3_hook nmt_hook = { .handler = nmt_int3_hook };

static void nmt_nest_here(void *unused)
{
	WRITE_ONCE(nmt_cpus[smp_processor_id()].nest_want, true);
	nmt_sites();
}

static void nmt_nest_hook(enum text_poke_step step)
{
	if (step == TEXT_POKE_INT3_WRITTEN)
		on_each_cpu(nmt_nest_here, NULL, 1);
}

static void nmt_test_nested(struct kunit *test)
{
	unsigned long hits[NR_CPUS];
	unsigned int cpu;

	for_each_online_cpu(cpu)
		hits[cpu] = text_poke_cpu_int3_nmi_hits(cpu);
	register_int3_hook(&nmt_hook);
	text_poke_test_hook = nmt_nest_hook;
	WRITE_ONCE(nmt_in_flight, true);
	static_branch_enable(&nmt_key);
	static_branch_disable(&nmt_key);
	WRITE_ONCE(nmt_in_flight, false);
	text_poke_test_hook = NULL;
	unregister_int3_hook(&nmt_hook);
	nmt_key_state = 0;
	for_each_online_cpu(cpu) {
		struct nmt_cpu *c = &nmt_cpus[cpu];

		KUNIT_EXPECT_EQ_MSG(test, c->nest_nmis, 2, "CPU%u", cpu);
		KUNIT_EXPECT_EQ_MSG(test, c->nest_blocked, 2,
				    "CPU%u: an NMI came in before the iretq",
				    cpu);
		KUNIT_EXPECT_GE_MSG(test, text_poke_cpu_int3_nmi_hits(cpu),
				    hits[cpu] + 4, "CPU%u", cpu);
	}
	nmt_expect_clean(test);
}

/*
 * nmi_watchdog=1 (set here for 200 ms): an NMI to every CPU every tick
 * of the boot CPU. Each CPU takes at least half of them (two that come
 * while one is pending merge).
 */
static void nmt_test_watchdog(struct kunit *test)
{
	unsigned long runs[NR_CPUS], sent = nmi_watchdog_sent();
	unsigned int cpu, old;

	for_each_online_cpu(cpu)
		runs[cpu] = READ_ONCE(nmt_cpus[cpu].runs);
	old = nmi_watchdog_set(1);
	msleep(200);
	nmi_watchdog_set(old);
	msleep(20); /* the last round lands */
	sent = nmi_watchdog_sent() - sent;
	KUNIT_EXPECT_GE(test, sent, 5);
	for_each_online_cpu(cpu)
		KUNIT_EXPECT_GE_MSG(test, nmt_cpus[cpu].runs - runs[cpu],
				    sent / 2, "CPU%u", cpu);
	nmt_expect_clean(test);
	kunit_info(test, "%lu rounds of watchdog NMIs in 200 ms", sent);
}

static struct kunit_case nmt_cases[] = {
	KUNIT_CASE(nmt_test_ipi),
	KUNIT_CASE(nmt_test_watchdog),
	KUNIT_CASE(nmt_test_user_gs),
	KUNIT_CASE(nmt_test_batches),
	KUNIT_CASE(nmt_test_nested),
	{}
};

static struct kunit_suite nmt_suite = {
	.name = "nmi",
	.init = nmt_init,
	.exit = nmt_exit,
	.test_cases = nmt_cases,
};
kunit_test_suite(nmt_suite);
