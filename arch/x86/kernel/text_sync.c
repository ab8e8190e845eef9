// SPDX-License-Identifier: GPL-2.0
/*
 * Sync rounds for the CPUs in the kernel only (<asm/text-sync.h>).
 *
 * A sync round of the int3 batch (text_patch.c) makes every CPU that may
 * run the changed text serialize. A CPU that is idle (halted in the idle
 * loop) or in user mode runs no kernel text, so it need not be
 * interrupted: it serializes when it comes back, if the text changed
 * meanwhile. The text generation, text_sync_gen, says whether it did:
 *
 *   patcher, each round             a CPU entering the kernel
 *   1. write the pass's bytes       a. state = CT_KERNEL (xchg: a barrier)
 *   2. text_sync_gen += 2, locked   b. read text_sync_gen; if it is not
 *   3. (the locked add: a barrier)     the one this CPU saw last time it
 *   4. read every CPU's state and      serialized: serialize, remember it
 *      interrupt those in the kernel c. go on: only now any patchable site
 *
 * Either the patcher reads CT_KERNEL in 4 (and the IPI serializes the
 * CPU), or the CPU reads the new generation in b: the two stores come
 * before the two loads on each side, and x86 orders them with the
 * barriers. A CPU that enters in the middle of a batch meets the int3s
 * (the references are armed for every CPU) and the later rounds, which
 * see it in the kernel. A CPU leaves (state = CT_IDLE or CT_USER) only
 * once it will run no more kernel text before the hlt, sysretq or iretq.
 *
 * A kernel TLB shootdown (arch/x86/mm/init.c) takes the same way, and so
 * the generation has a second writer, outside text_mutex: every update
 * of it is a locked add, and the shootdown adds 2, which keeps a raised
 * fence raised. It moves text_sync_tlb_gen first; an entering CPU that
 * finds the generation moved also flushes its whole TLB in b if the TLB
 * generation moved since its last flush (ts_enter_tlb()).
 *
 * Under QEMU's TCG the batch's last write is made with the other CPUs
 * parked (text_patch.c, step 4), so that no CPU is translating a site
 * while it is written. The CPUs that are not in the kernel are not
 * parked by an IPI: the park raises a fence instead, an odd generation,
 * and a CPU that enters while it is up waits at it, in b, before any
 * site. One case needs care: a CPU the patcher found in the kernel and
 * sent the park IPI may leave and come back before taking the IPI; it
 * then waits at the fence with interrupts off, and the IPI cannot reach
 * it. So each expected CPU has a slot, and whichever comes first, the
 * IPI or the fence, parks it (cmpxchg of the slot); the other finds the
 * slot taken and only serializes.
 *
 * NMIs: an NMI can interrupt an entry between a and b, so the NMI entry
 * compares the generation whatever the state was, and waits at the fence
 * unless it interrupted the patcher itself (which never waits for
 * itself). It puts the state back as it was when it returns.
 *
 * An NMI that waits at the fence parks its CPU, and so may end the park
 * on behalf of code that had just hit an int3 of the batch and not yet
 * taken its reference (bp_get(): an NMI can come at any instruction of
 * the int3 entry). Once the park ends the patcher drops the references
 * and retires the batch, and that int3 finds none: a stray int3. The
 * park IPI covers it: it can only be taken once the int3 handler, which
 * runs with interrupts off, is done. So the park ends only when every
 * CPU it sent the IPI to has also run it (text_sync_ipi), as a plain
 * round waits for its IPIs. By then the fence is down, so a CPU that
 * waited at it with interrupts off goes on, and takes its IPI later.
 * tests/model/text_poke.pml checks it (M_NO_PARK_IPI_WAIT).
 *
 * One CPU alone (text_sync_alone, <linux/cpus_alone.h>: one CPU online,
 * none on its way): no other CPU runs kernel text or can come back into
 * it before the key is off again, so a round has no target and moves no
 * generation, and the batch makes its last write as a plain round
 * (text_patch.c), with no fence and nobody to park.
 */
#include <linux/kernel.h>
#include <linux/cpus_alone.h>
#include <linux/jump_label.h>
#include <linux/percpu.h>
#include <linux/smp.h>
#include <asm/barrier.h>
#include <asm/processor.h>
#include <asm/text-sync.h>

DEFINE_STATIC_KEY_CPUS_ALONE(text_sync_alone);
DEFINE_PER_CPU(int, text_sync_cpu_state);
DEFINE_PER_CPU(unsigned int, text_sync_cpu_gen);
unsigned int text_sync_gen;

/* The CPU writing under a raised fence, or -1. */
static int text_sync_patcher = -1;

/* A park's slot, per CPU: free, expected (the IPI sent), or parked. */
enum { TS_SLOT_FREE, TS_SLOT_WANTED, TS_SLOT_PARKED };
static DEFINE_PER_CPU(int, text_sync_slot);
/* The park IPI sent to this CPU has not run to its end yet. */
static DEFINE_PER_CPU(int, text_sync_ipi);

/*
 * Moved by each kernel TLB shootdown (before it knows whether it skips a
 * CPU); the value each CPU flushed at last.
 */
unsigned int text_sync_tlb_gen;
static DEFINE_PER_CPU(unsigned int, text_sync_cpu_tlb_gen);

static DEFINE_PER_CPU(unsigned long, ts_entry_syncs);
static DEFINE_PER_CPU(unsigned long, ts_tlb_deferred);
static DEFINE_PER_CPU(unsigned long, ts_tlb_flushes);
static DEFINE_PER_CPU(unsigned long, ts_fence_waits);
static unsigned long ts_skipped; /* the patcher's, under text_mutex */

/*
 * Step 4: the other online CPUs in the kernel, now, and how many; those
 * that are not are counted in *skipped.
 */
static unsigned int ts_kernel_cpus(struct cpumask *cpus,
				   unsigned long *skipped)
{
	unsigned long others, in = 0;
	unsigned int cpu, n = 0;

	/* One word of CPUs: the others' bits, taken one at a time. */
	BUILD_BUG_ON(NR_CPUS > BITS_PER_LONG);
	others = READ_ONCE(cpu_online_mask->bits[0]) &
		 ~(1UL << smp_processor_id());
	for (; others; others &= others - 1) {
		cpu = __builtin_ctzl(others);
		if (text_sync_state(cpu) == CT_KERNEL) {
			in |= 1UL << cpu;
			n++;
		} else {
			(*skipped)++;
		}
	}
	cpus->bits[0] = in;
	return n;
}

unsigned int __text_sync_targets(struct cpumask *cpus)
{
	/* A locked add: also the barrier of step 3 (before the states). */
	__atomic_add_fetch(&text_sync_gen, 2, __ATOMIC_SEQ_CST);
	return ts_kernel_cpus(cpus, &ts_skipped);
}

/*
 * The kernel's mappings changed (a kernel TLB shootdown): the other
 * online CPUs in the kernel, to flush now. The others flush their whole
 * TLB on their way back in, before they can touch a mapping that may
 * have changed: the same handshake as a sync round's, with the TLB
 * generation moved first. Preemption off.
 */
unsigned int text_sync_tlb_targets(struct cpumask *cpus)
{
	__atomic_add_fetch(&text_sync_tlb_gen, 1, __ATOMIC_SEQ_CST);
	/* Even to even: no fence; locked, a barrier before the states. */
	__atomic_add_fetch(&text_sync_gen, 2, __ATOMIC_SEQ_CST);
	return ts_kernel_cpus(cpus, this_cpu_ptr(&ts_tlb_deferred));
}

/* On entry, the generation moved: flush if the kernel's mappings did. */
static void ts_enter_tlb(void)
{
	unsigned int tlb = READ_ONCE(text_sync_tlb_gen);

	if (tlb == this_cpu_read(text_sync_cpu_tlb_gen))
		return;
	this_cpu_write(text_sync_cpu_tlb_gen, tlb);
	flush_tlb_local_all();
	this_cpu_inc(ts_tlb_flushes);
}

unsigned int text_sync_park_begin(struct cpumask *cpus)
{
	unsigned int cpu, n;

	WRITE_ONCE(text_sync_patcher, smp_processor_id());
	/* Odd: the fence; a locked add, a barrier before the states. */
	__atomic_add_fetch(&text_sync_gen, 1, __ATOMIC_SEQ_CST);
	n = ts_kernel_cpus(cpus, &ts_skipped);
	for_each_cpu(cpu, cpus) {
		WRITE_ONCE(per_cpu(text_sync_ipi, cpu), 1);
		WRITE_ONCE(per_cpu(text_sync_slot, cpu), TS_SLOT_WANTED);
	}
	return n;
}

void text_sync_park_wait(const struct cpumask *cpus)
{
	unsigned int cpu;

	for_each_cpu(cpu, cpus)
		while (smp_load_acquire(&per_cpu(text_sync_slot, cpu)) !=
		       TS_SLOT_PARKED)
			cpu_relax();
}

void text_sync_park_end(const struct cpumask *cpus)
{
	unsigned int cpu;

	/* Down first: an NMI here must not wait for its own CPU. */
	__atomic_add_fetch(&text_sync_gen, 1, __ATOMIC_SEQ_CST); /* even */
	WRITE_ONCE(text_sync_patcher, -1);
	for_each_cpu(cpu, cpus)
		while (smp_load_acquire(&per_cpu(text_sync_slot, cpu)) !=
		       TS_SLOT_FREE)
			cpu_relax();
	/*
	 * And every park IPI run: a CPU parked by an NMI may still have an
	 * int3 of the batch in flight, which only its IPI rules out (see the
	 * top of the file). As a plain round's wait does, it runs this CPU's
	 * own call queue if interrupts are off.
	 */
	for_each_cpu(cpu, cpus)
		while (smp_load_acquire(&per_cpu(text_sync_ipi, cpu)))
			smp_wait_relax();
}

/*
 * Parks this CPU if the patcher expects it and nothing parked it yet:
 * until the fence is down, then serialized. True if it did.
 */
static bool ts_park(void)
{
	int *slot = this_cpu_ptr(&text_sync_slot);
	int wanted = TS_SLOT_WANTED;

	if (READ_ONCE(*slot) != TS_SLOT_WANTED ||
	    !__atomic_compare_exchange_n(slot, &wanted, TS_SLOT_PARKED, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		return false;
	while (smp_load_acquire(&text_sync_gen) & 1)
		cpu_relax();
	sync_core();
	smp_store_release(slot, TS_SLOT_FREE);
	return true;
}

void text_sync_park_here(void)
{
	if (!ts_park())
		sync_core();
	/* No int3 of this CPU's is in flight: the patcher may retire. */
	smp_store_release(this_cpu_ptr(&text_sync_ipi), 0);
}

/* Waits at a raised fence (parking if expected); the generation after. */
static unsigned int ts_fence_wait(void)
{
	unsigned int gen;

	this_cpu_inc(ts_fence_waits);
	while ((gen = smp_load_acquire(&text_sync_gen)) & 1)
		if (!ts_park())
			cpu_relax();
	return gen;
}

/*
 * Step b, the slow half: the generation moved while this CPU was idle or
 * in user mode. From text_sync_enter_slow (entry_64.S), interrupts off.
 * Like everything the entry reaches before this returns, it has no
 * patchable site (scripts/check_entry_sync.py).
 */
void __text_sync_enter(void)
{
	unsigned int gen = smp_load_acquire(&text_sync_gen);

	if (gen & 1)
		gen = ts_fence_wait();
	ts_enter_tlb();
	sync_core();
	this_cpu_write(text_sync_cpu_gen, gen);
	this_cpu_inc(ts_entry_syncs);
}

/* The same for an NMI, which must not wait on the patcher's own CPU. */
void __text_sync_nmi_enter(void)
{
	unsigned int gen = smp_load_acquire(&text_sync_gen);

	if ((gen & 1) && READ_ONCE(text_sync_patcher) != smp_processor_id())
		gen = ts_fence_wait();
	ts_enter_tlb();
	sync_core();
	this_cpu_write(text_sync_cpu_gen, gen);
	this_cpu_inc(ts_entry_syncs);
}

#ifdef CONFIG_TEXT_SYNC_PLANT
/* What TEXT_SYNC_PLANT puts on the entry paths (the build must fail). */
DEFINE_STATIC_KEY_FALSE(text_sync_plant_key);
static int text_sync_planted;

__visible noinline void text_sync_plant_fn(void);
__visible noinline void text_sync_plant_fn(void)
{
	if (static_branch_unlikely(&text_sync_plant_key))
		WRITE_ONCE(text_sync_planted, 1);
}
#endif

struct text_sync_stats text_sync_get_stats(void)
{
	struct text_sync_stats s = { .skipped = READ_ONCE(ts_skipped) };
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		s.entry_syncs += READ_ONCE(per_cpu(ts_entry_syncs, cpu));
		s.fence_waits += READ_ONCE(per_cpu(ts_fence_waits, cpu));
		s.tlb_deferred += READ_ONCE(per_cpu(ts_tlb_deferred, cpu));
		s.tlb_flushes += READ_ONCE(per_cpu(ts_tlb_flushes, cpu));
	}
	return s;
}
