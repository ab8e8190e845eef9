// SPDX-License-Identifier: GPL-2.0
/*
 * Running functions on other CPUs (<linux/smp.h>), and smp_init().
 *
 * A request is a call_single_data (csd). Each CPU has a FIFO queue of the
 * requests sent to it, under a spinlock held only to link or unlink one
 * csd. The sender queues its csd, then sends the IPI. The target's handler
 * unlinks one request at a time and runs it with the lock dropped, so a
 * func that enables interrupts lets the next IPI in, and the nested handler
 * takes the next request: a func may wait for a later request to its CPU.
 *
 * IPIs that arrive before the handler runs merge into one interrupt, so a
 * request queued behind a func that never returns (it waits, interrupts
 * enabled, for something) could be left with no interrupt to bring it in.
 * Hence, before it runs a func with requests still queued behind it, the
 * handler raises the call-function IPI on its own CPU again.
 *
 * Who owns a csd, and when it may be reused (CSD_FLAG_LOCK clear):
 *   wait=1  on the caller's stack; the target clears the flag after func
 *           returned and never touches the csd again;
 *   wait=0  this CPU's csd_async[target] slot; the target clears the flag
 *           once it has unlinked the csd and copied func and info, before
 *           func runs, so a long func does not hold up the next request.
 * Requests are set up and queued with interrupts disabled: a func that runs
 * on this CPU meanwhile (from its own queue, see smp_wait_relax()) finds
 * every csd_async slot either free or queued, never half set up.
 *
 * A caller waiting for a csd spins CSD_SPIN_US, then, if interrupts are
 * enabled, halts, so that its host CPU goes to the CPUs it waits for when
 * virtual CPUs outnumber host ones; the target's csd_unlock() interrupts it
 * (CSD_FLAG_WAKE). Only requests count in smp_stats.ipis_sent, not these
 * wake-ups nor a handler's IPIs to itself.
 */
#define pr_fmt(fmt) "smp: " fmt

#include <linux/kernel.h>
#include <linux/cpu.h>
#include <linux/cpus_alone.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/irqflags.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/timex.h>
#include <asm/barrier.h>
#include <asm/tsc.h>
#include <trace/events/ipi.h>

#define CSD_FLAG_LOCK 1 /* queued or running: not to be reused yet */
#define CSD_FLAG_SYNC 2 /* the sender waits: unlock after func returns */
#define CSD_FLAG_WAKE 4 /* the sender halts: interrupt it on unlock */
#define CSD_SPIN_US 20 /* how long a waiter spins before it halts */

/*
 * One CPU online, none coming: a call of "the others" calls nobody. Off,
 * the loop below finds the same (it skips this CPU and offline ones).
 */
DEFINE_STATIC_KEY_CPUS_ALONE(smp_call_alone);

typedef struct call_single_data {
	struct call_single_data *next;
	smp_call_func_t func;
	void *info;
	unsigned int flags;
	unsigned int sender;
} call_single_data_t;

struct call_queue {
	spinlock_t lock;
	call_single_data_t *head, *tail; /* both NULL when empty */
};

static DEFINE_PER_CPU(struct call_queue, call_queue);
static DEFINE_PER_CPU(call_single_data_t[NR_CPUS], csd_async);
struct smp_stats smp_stats;

static void smp_stat_inc(unsigned long *counter)
{
	__atomic_fetch_add(counter, 1, __ATOMIC_RELAXED);
}

void smp_wait_relax(void)
{
	if (irqs_disabled())
		flush_smp_call_function_queue();
	cpu_relax();
}

static bool csd_locked(call_single_data_t *csd)
{
	return smp_load_acquire(&csd->flags) & CSD_FLAG_LOCK;
}

/*
 * Halts until csd is unlocked. CSD_FLAG_WAKE, set atomically while the
 * lock is still seen, makes csd_unlock() interrupt this CPU; "sti; hlt"
 * takes that interrupt even if it came before the hlt. Interrupts are
 * enabled on return, as they were on entry.
 */
static void csd_wait_halted(call_single_data_t *csd)
{
	unsigned int flags;

	local_irq_disable();
	while ((flags = smp_load_acquire(&csd->flags)) & CSD_FLAG_LOCK) {
		if (!(flags & CSD_FLAG_WAKE) &&
		    !__atomic_compare_exchange_n(
			    &csd->flags, &flags, flags | CSD_FLAG_WAKE, false,
			    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			continue;
		safe_halt();
		local_irq_disable();
	}
	local_irq_enable();
}

/*
 * Waits for csd to be unlocked: spinning a little, then, if interrupts are
 * enabled, halted, leaving the (maybe shared) host CPU to the others.
 */
static void csd_wait(call_single_data_t *csd)
{
	u64 start = get_cycles(), spin = (u64)CSD_SPIN_US * tsc_khz / 1000;

	while (csd_locked(csd)) {
		if (!irqs_disabled() && get_cycles() - start > spin) {
			csd_wait_halted(csd);
			return;
		}
		smp_wait_relax();
	}
}

/* The last touch of csd: it may be reused or gone right after. */
static void csd_unlock(call_single_data_t *csd)
{
	unsigned int sender = csd->sender;

	if (__atomic_exchange_n(&csd->flags, 0, __ATOMIC_RELEASE) &
	    CSD_FLAG_WAKE)
		arch_send_call_function_single_ipi(sender);
}

/* Links csd at the tail of cpu's queue, then interrupts cpu. */
static void csd_queue(unsigned int cpu, call_single_data_t *csd)
{
	struct call_queue *q = per_cpu_ptr(&call_queue, cpu);
	unsigned long flags;

	csd->next = NULL;
	spin_lock_irqsave(&q->lock, flags);
	if (q->tail)
		q->tail->next = csd;
	else
		q->head = csd;
	q->tail = csd;
	spin_unlock_irqrestore(&q->lock, flags);
	smp_stat_inc(&smp_stats.ipis_sent);
	__trace_call_outline(ipi_send_cpu, cpu, csd->func);
	arch_send_call_function_single_ipi(cpu);
}

/*
 * Unlinks the oldest request of q, or returns NULL; *more: requests remain.
 * Interrupts are off.
 */
static call_single_data_t *csd_dequeue(struct call_queue *q, bool *more)
{
	call_single_data_t *csd;

	/* A request being linked now is followed by its own IPI. */
	if (!READ_ONCE(q->head))
		return NULL;
	spin_lock(&q->lock);
	csd = q->head;
	if (csd) {
		q->head = csd->next;
		if (!q->head)
			q->tail = NULL;
	}
	*more = q->head;
	spin_unlock(&q->lock);
	return csd;
}

void flush_smp_call_function_queue(void)
{
	struct call_queue *q = this_cpu_ptr(&call_queue);
	call_single_data_t *csd;
	bool more;

	while ((csd = csd_dequeue(q, &more))) {
		smp_call_func_t func = csd->func;
		void *info = csd->info;

		if (more) /* see the top of the file */
			arch_send_call_function_single_ipi(smp_processor_id());

		__trace_call_outline(csd_function_entry, func, csd);
		if (csd->flags & CSD_FLAG_SYNC) {
			func(info);
			csd_unlock(csd);
		} else {
			csd_unlock(csd);
			func(info);
		}
		__trace_call_outline(csd_function_exit, func, csd);
		local_irq_disable(); /* func may have enabled them */
	}
}

/* Queues func(info) for cpu in csd once csd is free. Interrupts are off. */
static void csd_send(unsigned int cpu, call_single_data_t *csd,
		     smp_call_func_t func, void *info, bool wait)
{
	csd_wait(csd);
	csd->func = func;
	csd->info = info;
	csd->sender = smp_processor_id();
	csd->flags = CSD_FLAG_LOCK | (wait ? CSD_FLAG_SYNC : 0);
	csd_queue(cpu, csd);
}

static call_single_data_t *csd_async_slot(unsigned int cpu)
{
	return &(*this_cpu_ptr(&csd_async))[cpu];
}

/*
 * func(info) on every online CPU of mask but this one, and on this one as
 * well if self is set and mask has it: the others first, then this one
 * (interrupts disabled), then the wait for the others if wait is set.
 */
static void smp_call_mask(const struct cpumask *mask, smp_call_func_t func,
			  void *info, bool wait, bool self)
{
	call_single_data_t sync[NR_CPUS];
	struct cpumask sent;
	unsigned int this, cpu;
	unsigned long flags;

	/* The caller's CPU is online: alone, it has nobody to call. */
	if (static_branch_unlikely(&smp_call_alone)) {
		local_irq_save(flags);
		if (self && cpumask_test_cpu(smp_processor_id(), mask))
			func(info);
		local_irq_restore(flags);
		return;
	}
	cpumask_clear(&sent);
	local_irq_save(flags);
	this = smp_processor_id();
	for_each_cpu(cpu, mask) {
		if (cpu == this || !cpu_online(cpu))
			continue;
		sync[cpu].flags = 0;
		csd_send(cpu, wait ? &sync[cpu] : csd_async_slot(cpu), func,
			 info, wait);
		cpumask_set_cpu(cpu, &sent);
	}
	if (self && cpumask_test_cpu(this, mask))
		func(info);
	local_irq_restore(flags);
	if (wait)
		for_each_cpu(cpu, &sent)
			csd_wait(&sync[cpu]);
}

int smp_call_function_single(int cpu, smp_call_func_t func, void *info,
			     int wait)
{
	call_single_data_t csd = { .flags = 0 };
	unsigned long flags;
	bool remote;

	if (cpu < 0 || !cpu_online(cpu))
		return -ENXIO;
	smp_stat_inc(&smp_stats.calls);
	local_irq_save(flags);
	remote = cpu != smp_processor_id();
	if (remote)
		csd_send(cpu, wait ? &csd : csd_async_slot(cpu), func, info,
			 wait);
	else
		func(info);
	local_irq_restore(flags);
	if (remote && wait)
		csd_wait(&csd);
	return 0;
}
EXPORT_SYMBOL(smp_call_function_single);

void smp_call_function_many(const struct cpumask *mask, smp_call_func_t func,
			    void *info, int wait)
{
	smp_stat_inc(&smp_stats.calls);
	smp_call_mask(mask, func, info, wait, false);
}

void smp_call_function(smp_call_func_t func, void *info, int wait)
{
	smp_stat_inc(&smp_stats.calls);
	smp_call_mask(cpu_online_mask, func, info, wait, false);
}

void on_each_cpu(smp_call_func_t func, void *info, int wait)
{
	smp_stat_inc(&smp_stats.calls);
	smp_call_mask(cpu_online_mask, func, info, wait, true);
}
EXPORT_SYMBOL(on_each_cpu);

void __init smp_init(void)
{
	unsigned int cpu;

	if (!smp_prepare_cpus()) {
		for_each_possible_cpu(cpu) {
			if (cpu_online(cpu))
				continue;
			if (!cpu_boot_wanted(cpu))
				pr_info("CPU%u not started (maxcpus/nosmp): add_cpu() starts it\n",
					cpu);
			else if (!__cpu_up(cpu))
				cpuhp_online_at_boot(cpu);
		}
	}
	smp_cpus_done();
	pr_info("Brought up %u CPUs\n", num_online_cpus());
}
