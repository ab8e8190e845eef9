/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_PROCESSOR_H
#define _ASM_X86_PROCESSOR_H

#include <linux/types.h>

#define X86_EFLAGS_TF (1UL << 8)
#define X86_EFLAGS_IF (1UL << 9)
#define X86_CR0_PE (1UL << 0)
#define X86_CR0_WP (1UL << 16)
#define X86_CR0_PG (1UL << 31)
#define X86_CR4_PAE (1UL << 5)
#define X86_CR4_PGE (1UL << 7)
#define MSR_IA32_APICBASE 0x1b
#define MSR_EFER 0xc0000080
#define MSR_GS_BASE 0xc0000101
#define EFER_LME (1UL << 8)
#define EFER_LMA (1UL << 10)
#define EFER_NX (1UL << 11)

static inline void cpuid(u32 leaf, u32 *a, u32 *b, u32 *c, u32 *d)
{
	asm volatile("cpuid"
		     : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d)
		     : "a"(leaf), "c"(0));
}

static inline u64 rdmsr(u32 msr)
{
	u32 lo, hi;

	asm volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((u64)hi << 32) | lo;
}

static inline void wrmsr(u32 msr, u64 v)
{
	asm volatile("wrmsr" : : "c"(msr), "a"((u32)v), "d"((u32)(v >> 32)));
}

#define DEFINE_CR_ACCESSORS(n)                                        \
	static inline unsigned long read_cr##n(void)                   \
	{                                                              \
		unsigned long v;                                       \
		asm volatile("mov %%cr" #n ", %0" : "=r"(v));          \
		return v;                                              \
	}                                                              \
	static inline void write_cr##n(unsigned long v)                \
	{                                                              \
		asm volatile("mov %0, %%cr" #n : : "r"(v) : "memory"); \
	}
DEFINE_CR_ACCESSORS(0)
DEFINE_CR_ACCESSORS(2)
DEFINE_CR_ACCESSORS(3)
DEFINE_CR_ACCESSORS(4)
#undef DEFINE_CR_ACCESSORS

static inline u64 rdtsc(void)
{
	u32 lo, hi;

	asm volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((u64)hi << 32) | lo;
}

static inline void cpu_relax(void)
{
	asm volatile("pause" ::: "memory");
}

static inline void halt(void)
{
	asm volatile("hlt" ::: "memory");
}

/*
 * Enables interrupts and halts until one arrives. The sti takes effect only
 * after the next instruction, so an interrupt that is already pending still
 * wakes the hlt instead of slipping in between: the idle loop's primitive.
 */
static inline void safe_halt(void)
{
	asm volatile("sti; hlt" ::: "memory");
}

/*
 * The idle loop's safe_halt(): the same, with the CPU counted idle while
 * it halts, so that text patching does not interrupt it (entry_64.S,
 * <asm/text-sync.h>). Interrupts off on entry, on at return.
 */
void arch_cpu_idle_halt(void);

static inline void local_irq_disable(void)
{
	asm volatile("cli" ::: "memory");
}

static inline void local_irq_enable(void)
{
	asm volatile("sti" ::: "memory");
}

static inline unsigned long native_save_fl(void)
{
	unsigned long flags;

	asm volatile("pushf; pop %0" : "=rm"(flags) : : "memory");
	return flags;
}

static inline void invlpg(unsigned long va)
{
	asm volatile("invlpg (%0)" : : "r"(va) : "memory");
}

/* Drops every entry of this CPU's TLB, global ones too. */
static inline void flush_tlb_local_all(void)
{
	unsigned long cr4 = read_cr4();

	/* Toggling CR4.PGE drops global entries too; a CR3 write the rest. */
	if (cr4 & X86_CR4_PGE) {
		write_cr4(cr4 & ~X86_CR4_PGE);
		write_cr4(cr4);
	} else {
		write_cr3(read_cr3());
	}
}

/* Serializes the instruction stream: what a CPU must do after text changed. */
static inline void sync_core(void)
{
	unsigned long tmp;

	asm volatile("mov %%cr2, %0; mov %0, %%cr2" : "=r"(tmp) : : "memory");
}

#endif /* _ASM_X86_PROCESSOR_H */
