/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_APIC_H
#define _ASM_X86_APIC_H

#include <linux/types.h>

/*
 * The local APIC in xAPIC mode: 4 KiB of MMIO registers, mapped uncached,
 * at the same physical address on every CPU, each CPU reaching its own.
 */
#define APIC_DEFAULT_PHYS_BASE 0xfee00000

#define APIC_ID 0x20 /* bits 31:24 */
#define APIC_LVR 0x30 /* version */
#define APIC_TPR 0x80 /* task priority */
#define APIC_EOI 0xb0
#define APIC_SVR 0xf0 /* spurious vector */
#define APIC_SVR_ENABLE (1U << 8)
#define APIC_ESR 0x280 /* error status */
#define APIC_ICR 0x300 /* interrupt command, low half: sends */
#define APIC_ICR2 0x310 /* interrupt command, destination */
#define APIC_LVTT 0x320 /* local vector table: timer */
#define APIC_LVT0 0x350 /* LINT0 */
#define APIC_LVT1 0x360 /* LINT1 */
#define APIC_LVTERR 0x370
#define APIC_LVT_MASKED (1U << 16)
#define APIC_LVT_TIMER_PERIODIC (1U << 17)
#define APIC_TMICT 0x380 /* timer initial count */
#define APIC_TMCCT 0x390 /* timer current count */
#define APIC_TDCR 0x3e0 /* timer divide configuration */
#define APIC_TDR_DIV_16 0x3

/* ICR fields */
#define APIC_DM_FIXED 0x000
#define APIC_DM_NMI 0x400
#define APIC_DM_INIT 0x500
#define APIC_DM_STARTUP 0x600
#define APIC_ICR_BUSY (1U << 12) /* delivery status: send pending */
#define APIC_INT_ASSERT (1U << 14)
#define APIC_INT_LEVELTRIG (1U << 15)

/* Vectors: the highest priorities, above anything a device could use. */
#define CALL_FUNCTION_VECTOR 0xf0
#define RESCHEDULE_VECTOR 0xf1
#define LOCAL_TIMER_VECTOR 0xec
#define SPURIOUS_APIC_VECTOR 0xff

u32 apic_read(u32 reg);
void apic_write(u32 reg, u32 val);

/* The MADT's address of the local APIC; without it, IA32_APIC_BASE's. */
void register_lapic_address(phys_addr_t pa);
/* Maps the local APIC and enables it on the boot CPU; masks the 8259s. */
void lapic_init(void);
/* Enables this CPU's local APIC, every local interrupt source masked. */
void lapic_setup(void);

/*
 * The local APIC timer. lapic_timer_calibrate() (boot) returns the timer's
 * counts in 1/hz s, measured against the TSC on this CPU, or 0 if it does
 * not count; the timer is left stopped. lapic_timer_start() starts this
 * CPU's timer, periodic, raising LOCAL_TIMER_VECTOR every count counts;
 * lapic_timer_stop() stops it (a CPU going offline).
 */
u32 lapic_timer_calibrate(unsigned int hz);
void lapic_timer_start(u32 count);
void lapic_timer_stop(void);

/* This CPU's local APIC ID. */
u32 read_apic_id(void);

/* Ends the interrupt in service. Not for the spurious vector. */
void apic_eoi(void);

/*
 * Sends an IPI to APIC ID apicid; icr is the ICR's low half as sent:
 * delivery mode, level, trigger mode and vector. Waits for the previous IPI
 * to be accepted first (delivery status idle, at most 1 ms). Any context.
 */
void apic_send_ipi(u32 apicid, u32 icr);

#endif /* _ASM_X86_APIC_H */
