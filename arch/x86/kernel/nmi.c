// SPDX-License-Identifier: GPL-2.0
/*
 * NMIs (<asm/nmi.h>): do_nmi() and its handlers, the NMI IPI and a
 * periodic NMI, the watchdog's heartbeat (nmi_watchdog=TICKS).
 *
 * The handler list is walked in NMI context, with no lock: a handler is
 * linked at the head with one store, and unlinked with one, after which
 * unregister_nmi_handler() waits until no CPU is inside an NMI that may
 * still hold it. The walk sits behind a static branch, counting the
 * handlers registered: do_nmi() runs a patchable site itself.
 */
#include <linux/kernel.h>
#include <linux/jump_label.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/smp.h>
#include <asm/apic.h>
#include <asm/barrier.h>
#include <asm/nmi.h>
#include <asm/processor.h>
#include <asm/smp.h>

DEFINE_PER_CPU(int, nmi_depth);
static DEFINE_PER_CPU(unsigned long, nmis);

static struct nmi_handler *nmi_handlers;
static DEFINE_MUTEX(nmi_handlers_mutex);
static DEFINE_STATIC_KEY_FALSE(nmi_handlers_on);

static unsigned int nmi_watchdog_ticks;
core_param_named("nmi_watchdog", nmi_watchdog_ticks, uint);
static unsigned long nmi_wd_ticks, nmi_wd_sent;

unsigned long nmi_count(unsigned int cpu)
{
	return READ_ONCE(per_cpu(nmis, cpu));
}

static void nmi_run_handlers(struct pt_regs *regs)
{
	struct nmi_handler *h;

	for (h = READ_ONCE(nmi_handlers); h; h = READ_ONCE(h->next))
		h->fn(regs);
}

/* From nmi_entry (entry_64.S): the kernel's %gs, NMIs blocked. */
__visible void do_nmi(struct pt_regs *regs);
__visible void do_nmi(struct pt_regs *regs)
{
	this_cpu_inc(nmi_depth);
	this_cpu_inc(nmis);
	smp_stop_nmi_check(); /* no return if panic() stops CPUs */
	if (static_branch_unlikely(&nmi_handlers_on))
		nmi_run_handlers(regs);
	this_cpu_dec(nmi_depth);
}

void register_nmi_handler(struct nmi_handler *h)
{
	mutex_lock(&nmi_handlers_mutex);
	h->next = nmi_handlers;
	smp_store_release(&nmi_handlers, h);
	mutex_unlock(&nmi_handlers_mutex);
	static_branch_inc(&nmi_handlers_on);
}

/* Every CPU that was inside an NMI when called has left it since. */
static void nmi_wait_handlers_done(void)
{
	unsigned long seen[NR_CPUS];
	unsigned int cpu;

	smp_mb(); /* the unlink before the looks */
	for_each_online_cpu(cpu)
		seen[cpu] = nmi_count(cpu);
	for_each_online_cpu(cpu)
		while (READ_ONCE(per_cpu(nmi_depth, cpu)) &&
		       nmi_count(cpu) == seen[cpu])
			cpu_relax();
}

void unregister_nmi_handler(struct nmi_handler *h)
{
	struct nmi_handler **p;

	static_branch_dec(&nmi_handlers_on);
	mutex_lock(&nmi_handlers_mutex);
	for (p = &nmi_handlers; *p; p = &(*p)->next) {
		if (*p == h) {
			WRITE_ONCE(*p, h->next);
			break;
		}
	}
	nmi_wait_handlers_done();
	mutex_unlock(&nmi_handlers_mutex);
}

void nmi_send(unsigned int cpu)
{
	WARN_ON_ONCE(in_nmi());
	apic_send_ipi(x86_cpu_to_apicid[cpu], APIC_DM_NMI | APIC_INT_ASSERT);
}

void nmi_send_all(void)
{
	unsigned int cpu;

	for_each_online_cpu(cpu)
		nmi_send(cpu);
}

void nmi_watchdog_tick(void)
{
	if (!nmi_watchdog_ticks || smp_processor_id())
		return;
	if (++nmi_wd_ticks % nmi_watchdog_ticks)
		return;
	nmi_send_all();
	nmi_wd_sent++;
}

unsigned int nmi_watchdog_set(unsigned int ticks)
{
	unsigned int old = READ_ONCE(nmi_watchdog_ticks);

	WRITE_ONCE(nmi_watchdog_ticks, ticks);
	return old;
}

unsigned long nmi_watchdog_sent(void)
{
	return READ_ONCE(nmi_wd_sent);
}
