// SPDX-License-Identifier: GPL-2.0
/*
 * The local APIC in xAPIC mode: enabling it, EOI, IPIs and its timer. The
 * only interrupts the kernel takes are IPIs and each CPU's timer tick: the
 * 8259 PICs are moved off the exception vectors and masked, and each CPU
 * masks its timer (until time_init() starts it), LINT0, LINT1 and error
 * entries.
 */
#define pr_fmt(fmt) "apic: " fmt

#include <linux/kernel.h>
#include <linux/delay.h>
#include <linux/init.h>
#include <linux/irqflags.h>
#include <asm/apic.h>
#include <asm/io.h>
#include <asm/pgtable.h>
#include <asm/processor.h>
#include <asm/smp.h>
#include <asm/traps.h>
#include <asm/tsc.h>

#define APICBASE_X2APIC (1ULL << 10)
#define APICBASE_ENABLE (1ULL << 11)
#define APICBASE_ADDR_MASK 0xffffff000ULL
#define ICR_IDLE_TIMEOUT_US 1000
#define LAPIC_CAL_MS 10

#define PIC1_CMD 0x20
#define PIC1_DATA 0x21
#define PIC2_CMD 0xa0
#define PIC2_DATA 0xa1

static phys_addr_t lapic_phys;
static u8 *lapic_base __ro_after_init;

u32 apic_read(u32 reg)
{
	return *(volatile u32 *)(lapic_base + reg);
}

void apic_write(u32 reg, u32 val)
{
	*(volatile u32 *)(lapic_base + reg) = val;
}

u32 read_apic_id(void)
{
	return apic_read(APIC_ID) >> 24;
}

void apic_eoi(void)
{
	apic_write(APIC_EOI, 0);
}

void __init register_lapic_address(phys_addr_t pa)
{
	lapic_phys = pa;
}

static bool apic_wait_icr_idle(void)
{
	unsigned int us;

	for (us = 0; us < ICR_IDLE_TIMEOUT_US; us++) {
		if (!(apic_read(APIC_ICR) & APIC_ICR_BUSY))
			return true;
		udelay(1);
	}
	return false;
}

void apic_send_ipi(u32 apicid, u32 icr)
{
	unsigned long flags;

	/* No handler on this CPU may send between the two writes. */
	local_irq_save(flags);
	if (!apic_wait_icr_idle())
		WARN_ONCE(
			1,
			"apic: IPI to APIC ID %u: the previous one is still pending after %u us\n",
			apicid, ICR_IDLE_TIMEOUT_US);
	apic_write(APIC_ICR2, apicid << 24);
	apic_write(APIC_ICR, icr);
	local_irq_restore(flags);
}

/* Not in service, so no EOI: the APIC only reports that nothing came. */
static void spurious_interrupt(struct pt_regs *regs)
{
}

void lapic_setup(void)
{
	u64 base = rdmsr(MSR_IA32_APICBASE);

	if (!(base & APICBASE_ENABLE))
		wrmsr(MSR_IA32_APICBASE, base | APICBASE_ENABLE);
	apic_write(APIC_TPR, 0); /* accept every vector */
	apic_write(APIC_LVTT, APIC_LVT_MASKED);
	apic_write(APIC_LVT0, APIC_LVT_MASKED);
	apic_write(APIC_LVT1, APIC_LVT_MASKED);
	apic_write(APIC_LVTERR, APIC_LVT_MASKED);
	apic_write(APIC_ESR, 0);
	apic_write(APIC_SVR, APIC_SVR_ENABLE | SPURIOUS_APIC_VECTOR);
}

/*
 * The 8259 pair, initialized with its vectors at 0x20..0x2f (the BIOS left
 * them on the exceptions), then every line masked. A spurious IRQ 7 or 15
 * would land on an unused vector and be reported, not taken for a fault.
 */
static void __init pic_disable(void)
{
	outb(0x11, PIC1_CMD); /* ICW1: initialize, ICW4 follows */
	outb(0x11, PIC2_CMD);
	outb(0x20, PIC1_DATA); /* ICW2: vector base */
	outb(0x28, PIC2_DATA);
	outb(0x04, PIC1_DATA); /* ICW3: the slave is on IRQ 2 */
	outb(0x02, PIC2_DATA);
	outb(0x01, PIC1_DATA); /* ICW4: 8086 mode */
	outb(0x01, PIC2_DATA);
	outb(0xff, PIC1_DATA);
	outb(0xff, PIC2_DATA);
}

void __init lapic_init(void)
{
	u64 msr = rdmsr(MSR_IA32_APICBASE);
	phys_addr_t pa = lapic_phys ? lapic_phys : msr & APICBASE_ADDR_MASK;

	if (msr & APICBASE_X2APIC)
		panic("apic: the firmware enabled x2APIC mode; only xAPIC is supported");
	if (pa != (msr & APICBASE_ADDR_MASK))
		pr_warn("MADT says %#llx but IA32_APIC_BASE says %#llx\n", pa,
			msr & APICBASE_ADDR_MASK);
	lapic_base = ioremap(pa, PAGE_SIZE);
	if (!lapic_base)
		panic("apic: cannot map the local APIC at %#llx", pa);
	pic_disable();
	set_irq_handler(SPURIOUS_APIC_VECTOR, spurious_interrupt);
	lapic_setup();
	x86_cpu_to_apicid[0] = read_apic_id();
	pr_info("local APIC at %#llx, version %#x, boot CPU APIC ID %u\n", pa,
		apic_read(APIC_LVR) & 0xff, x86_cpu_to_apicid[0]);
}

/*
 * The timer counts the bus (or core crystal) clock divided by 16, at a
 * rate the SDM leaves to the platform: count down from the top, masked,
 * for LAPIC_CAL_MS of TSC time, and scale. Each end reads the TSC, then
 * the count, so a delay between the two reads cancels out.
 */
u32 __init lapic_timer_calibrate(unsigned int hz)
{
	u64 t0, t1, wait = (u64)tsc_khz * LAPIC_CAL_MS;
	u64 tsc_per_tick = (u64)tsc_khz * 1000 / hz;
	u32 c0, c1;

	apic_write(APIC_LVTT, APIC_LVT_MASKED);
	apic_write(APIC_TDCR, APIC_TDR_DIV_16);
	apic_write(APIC_TMICT, 0xffffffff);
	t0 = rdtsc();
	c0 = apic_read(APIC_TMCCT);
	do
		t1 = rdtsc();
	while (t1 - t0 < wait);
	c1 = apic_read(APIC_TMCCT);
	apic_write(APIC_TMICT, 0);
	if (c1 >= c0)
		return 0;
	return ((u64)(c0 - c1) * tsc_per_tick + (t1 - t0) / 2) / (t1 - t0);
}

void lapic_timer_start(u32 count)
{
	apic_write(APIC_TDCR, APIC_TDR_DIV_16);
	apic_write(APIC_LVTT, APIC_LVT_TIMER_PERIODIC | LOCAL_TIMER_VECTOR);
	apic_write(APIC_TMICT, count);
}

void lapic_timer_stop(void)
{
	apic_write(APIC_LVTT, APIC_LVT_MASKED);
	apic_write(APIC_TMICT, 0);
}
