// SPDX-License-Identifier: GPL-2.0
/*
 * Starting the other CPUs (APs), one at a time, the way the Intel SDM's
 * MP initialization protocol describes:
 *
 * 1. smp_prepare_cpus(): copy the real-mode trampoline (trampoline_64.S)
 *    to TRAMPOLINE_BASE, make its direct-map alias read-only, and map the
 *    page at its own address, executable, for the APs' switch to paging;
 * 2. __cpu_up(): allocate the AP's stack and exception tables, send it
 *    INIT and two STARTUP IPIs naming the trampoline's page; it reaches
 *    long mode on the kernel's page tables and calls start_secondary(),
 *    which sets its GS base, loads its GDT, TSS and the IDT, enables its
 *    local APIC, marks it online and idles with interrupts enabled. The
 *    boot CPU waits AP_BOOT_TIMEOUT_MS at most for the online bit;
 * 3. smp_cpus_done(): remove the identity mapping. The copy stays, its
 *    direct-map alias read-only: nothing else uses that page.
 *
 * CPU hotplug reuses all of it. arch_cpu_kill() wakes the dying CPU, whose
 * idle loop calls arch_cpu_die(): it stops its tick, runs its last cross
 * calls, acknowledges (cpu_dead) and halts with interrupts off; the
 * killer then sends it INIT, which leaves it waiting for a STARTUP IPI.
 * arch_cpu_up() maps the trampoline's page again and starts it exactly as
 * at boot, on the stacks it had, and unmaps the page once it is online.
 */
#define pr_fmt(fmt) "smp: " fmt

#include <linux/kernel.h>
#include <linux/delay.h>
#include <linux/init.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/tick.h>
#include <asm/apic.h>
#include <asm/pgtable.h>
#include <asm/processor.h>
#include <asm/realmode.h>
#include <asm/setup.h>
#include <asm/traps.h>

#define AP_STACK_PAGES 4
#define AP_BOOT_TIMEOUT_MS 1000
#define INIT_DELAY_MS 10
#define SIPI_DELAY_US 200
#define CPUID_1_ECX_HYPERVISOR (1U << 31)

u32 x86_cpu_to_apicid[NR_CPUS];
struct trampoline_params trampoline_params;
static bool trampoline_mapped;

/* The AP being started, for its start_secondary(). */
static unsigned int ap_cpu;
static struct cpu_entry_area *ap_entry_area;
/* Each AP's stack top and exception tables, kept for its next start. */
static unsigned long ap_stack_top[NR_CPUS];
static struct cpu_entry_area *ap_cea[NR_CPUS];
/* Set by a dying CPU once it stopped, for arch_cpu_kill(). */
static int cpu_dead[NR_CPUS];

static const char *const ap_stage_names[] = {
	[AP_STAGE_NONE] = "it never ran the trampoline",
	[AP_STAGE_PROTECTED] = "it stopped in 32-bit protected mode",
	[AP_STAGE_LONG] = "it stopped between long mode and start_secondary()",
	[AP_STAGE_KERNEL] = "it stopped in start_secondary()",
};

__visible void __noreturn start_secondary(void);

static u32 cpuid_1(u32 *ecx)
{
	u32 a, b, d;

	cpuid(1, &a, &b, ecx, &d);
	return b;
}

int __init smp_register_cpu(u32 apic_id)
{
	static unsigned int nr_cpus = 1;
	unsigned int cpu;
	u32 ecx;

	/* CPUID's initial APIC ID: the boot CPU's APIC is not mapped yet. */
	if (apic_id == cpuid_1(&ecx) >> 24)
		return 0;
	if (nr_cpus == NR_CPUS)
		return -ENOSPC;
	cpu = nr_cpus++;
	x86_cpu_to_apicid[cpu] = apic_id;
	set_cpu_possible(cpu, true);
	return cpu;
}

static bool __init e820_is_ram(phys_addr_t start, phys_addr_t size)
{
	unsigned int i;

	for (i = 0; i < boot_params.nr_e820; i++) {
		struct e820_entry *e = &boot_params.e820[i];

		if (e->type == E820_TYPE_RAM && e->addr <= start &&
		    start + size <= e->addr + e->size)
			return true;
	}
	return false;
}

static int __init trampoline_setup(void)
{
	size_t size = trampoline_end - trampoline_start;
	void *alias = __va(TRAMPOLINE_BASE);

	BUILD_BUG_ON(offsetof(struct trampoline_params, cr0) != TP_CR0 ||
		     offsetof(struct trampoline_params, cr3) != TP_CR3 ||
		     offsetof(struct trampoline_params, cr4) != TP_CR4 ||
		     offsetof(struct trampoline_params, efer) != TP_EFER ||
		     offsetof(struct trampoline_params, stage) != TP_STAGE ||
		     offsetof(struct trampoline_params, stack) != TP_STACK);
	BUG_ON(size > PAGE_SIZE);
	if (!e820_is_ram(TRAMPOLINE_BASE, PAGE_SIZE)) {
		pr_err("%#x is not RAM in the e820 map: nowhere to start APs\n",
		       TRAMPOLINE_BASE);
		return -ENOMEM;
	}
	/* The AP loads CR3 in 32-bit mode. */
	if (read_cr3() >> 32) {
		pr_err("the kernel page tables are above 4 GiB\n");
		return -ENOMEM;
	}
	memcpy(alias, trampoline_start, size);
	trampoline_params.cr0 = read_cr0();
	trampoline_params.cr3 = read_cr3();
	trampoline_params.cr4 = read_cr4();
	trampoline_params.efer = rdmsr(MSR_EFER) & ~EFER_LMA;
	/* W^X: the page has no writable mapping while it is executable. */
	if (set_memory_prot((unsigned long)alias, 1, PAGE_KERNEL_RO) ||
	    identity_map_low_page(TRAMPOLINE_BASE)) {
		pr_err("cannot map the AP trampoline at %#x\n",
		       TRAMPOLINE_BASE);
		return -ENOMEM;
	}
	trampoline_mapped = true;
	return 0;
}

int __init smp_prepare_cpus(void)
{
	smp_ipi_init();
	return num_possible_cpus() > 1 ? trampoline_setup() : 0;
}

void __init smp_cpus_done(void)
{
	if (trampoline_mapped)
		identity_unmap_low_pages();
	trampoline_mapped = false;
}

/* INIT, then two STARTUP IPIs: the SDM's universal start-up algorithm. */
static void wakeup_cpu_via_init(u32 apicid)
{
	u32 ecx;
	int i;

	apic_write(APIC_ESR, 0);
	apic_send_ipi(apicid,
		      APIC_DM_INIT | APIC_INT_LEVELTRIG | APIC_INT_ASSERT);
	apic_send_ipi(apicid, APIC_DM_INIT | APIC_INT_LEVELTRIG);
	/* The SDM's 10 ms after INIT are for real hardware. */
	cpuid_1(&ecx);
	if (!(ecx & CPUID_1_ECX_HYPERVISOR))
		mdelay(INIT_DELAY_MS);
	for (i = 0; i < 2; i++) {
		apic_send_ipi(apicid, APIC_DM_STARTUP | APIC_INT_ASSERT |
					      (TRAMPOLINE_BASE >> PAGE_SHIFT));
		udelay(SIPI_DELAY_US);
	}
}

static int wait_for_cpu_online(unsigned int cpu)
{
	unsigned int us;

	for (us = 0; us < AP_BOOT_TIMEOUT_MS * 1000; us += 10) {
		if (cpu_online(cpu))
			return 0;
		udelay(10);
	}
	return cpu_online(cpu) ? 0 : -ETIMEDOUT;
}

/* The AP did not come up: say how far it got, and park it with INIT. */
static void cpu_up_failed(unsigned int cpu, u32 apicid)
{
	u32 stage = READ_ONCE(trampoline_params.stage);
	u32 esr;

	apic_write(APIC_ESR, 0);
	esr = apic_read(APIC_ESR);
	pr_err("CPU%u (APIC ID %u) did not come up within %u ms: %s (APIC ESR %#x)\n",
	       cpu, apicid, AP_BOOT_TIMEOUT_MS,
	       stage < ARRAY_SIZE(ap_stage_names) ? ap_stage_names[stage] : "?",
	       esr);
	/* Its stacks stay allocated in case it runs on after all. */
	apic_send_ipi(apicid,
		      APIC_DM_INIT | APIC_INT_LEVELTRIG | APIC_INT_ASSERT);
	apic_send_ipi(apicid, APIC_DM_INIT | APIC_INT_LEVELTRIG);
}

/* The AP's stacks and exception tables, allocated at its first start. */
static int ap_alloc_stacks(unsigned int cpu)
{
	phys_addr_t stack;
	struct cpu_entry_area *cea;

	if (ap_stack_top[cpu])
		return 0;
	stack = alloc_frames(AP_STACK_PAGES);
	cea = cpu_entry_area_alloc();
	if (!stack || !cea) {
		pr_err("CPU%u: no memory for its stacks\n", cpu);
		if (stack)
			free_frames(stack, AP_STACK_PAGES);
		kfree(cea);
		return -ENOMEM;
	}
	ap_stack_top[cpu] = (unsigned long)__va(stack) +
			    AP_STACK_PAGES * PAGE_SIZE;
	ap_cea[cpu] = cea;
	return 0;
}

int __cpu_up(unsigned int cpu)
{
	u32 apicid = x86_cpu_to_apicid[cpu];

	if (ap_alloc_stacks(cpu))
		return -ENOMEM;
	ap_cpu = cpu;
	ap_entry_area = ap_cea[cpu];
	trampoline_params.stack = ap_stack_top[cpu];
	trampoline_params.stage = AP_STAGE_NONE;
	/* The writes above are seen before the IPIs (x86: TSO, UC MMIO). */
	wakeup_cpu_via_init(apicid);
	if (wait_for_cpu_online(cpu)) {
		cpu_up_failed(cpu, apicid);
		return -ETIMEDOUT;
	}
	pr_info("CPU%u (APIC ID %u) online\n", cpu, apicid);
	return 0;
}

/*
 * The AP's first C code: on its own stack, interrupts disabled, still on
 * the trampoline's GDT and without an IDT. Per-CPU data comes first
 * (printk() and WARN() need smp_processor_id()), then its exception
 * tables, then its local APIC; online last, since the boot CPU may send
 * IPIs from the moment it sees the bit.
 */
__visible void __noreturn start_secondary(void)
{
	unsigned int cpu = READ_ONCE(ap_cpu);

	WRITE_ONCE(trampoline_params.stage, AP_STAGE_KERNEL);
	/* Text may have changed since this CPU last ran: serialize first. */
	sync_core();
	wrmsr(MSR_GS_BASE, per_cpu_offset(cpu));
	sched_init_ap(cpu); /* this context becomes swapper/<cpu> */
	cpu_init_exception_handling(ap_entry_area);
	lapic_setup();
	tick_start_this_cpu(); /* at run time; time_init() does it at boot */
	set_cpu_online(cpu, true);
	cpu_idle(); /* interrupts on: all its work arrives by IPI or wake-up */
}

int arch_cpu_up(unsigned int cpu)
{
	int ret;

	if (!trampoline_mapped && identity_map_low_page(TRAMPOLINE_BASE)) {
		pr_err("CPU%u: cannot map the AP trampoline\n", cpu);
		return -ENOMEM;
	}
	trampoline_mapped = true;
	WRITE_ONCE(cpu_dead[cpu], 0);
	ret = __cpu_up(cpu);
	identity_unmap_low_pages();
	trampoline_mapped = false;
	return ret;
}

void __noreturn arch_cpu_die(void)
{
	local_irq_disable();
	lapic_timer_stop();
	/* Requests queued before it left the online mask (see takedown_cpu()). */
	flush_smp_call_function_queue();
	__atomic_store_n(&cpu_dead[smp_processor_id()], 1, __ATOMIC_RELEASE);
	for (;;)
		halt(); /* interrupts off: only INIT gets it out */
}

int arch_cpu_kill(unsigned int cpu)
{
	u32 apicid = x86_cpu_to_apicid[cpu];
	unsigned int ms;
	int ret = 0;

	arch_smp_send_reschedule(cpu); /* out of hlt, into its idle loop */
	for (ms = 0; !__atomic_load_n(&cpu_dead[cpu], __ATOMIC_ACQUIRE); ms++) {
		if (ms == AP_BOOT_TIMEOUT_MS) {
			pr_err("CPU%u (APIC ID %u) did not stop within %u ms: parked by INIT anyway\n",
			       cpu, apicid, AP_BOOT_TIMEOUT_MS);
			ret = -ETIMEDOUT;
			break;
		}
		msleep(1);
	}
	/* Wait-for-SIPI: nothing but arch_cpu_up() starts it again. */
	apic_send_ipi(apicid,
		      APIC_DM_INIT | APIC_INT_LEVELTRIG | APIC_INT_ASSERT);
	apic_send_ipi(apicid, APIC_DM_INIT | APIC_INT_LEVELTRIG);
	return ret;
}
