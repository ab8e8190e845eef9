/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_PERCPU_H
#define _LINUX_PERCPU_H

#include <linux/compiler.h>
#include <linux/export.h>
#include <linux/threads.h>
#include <linux/types.h>
#include <asm/percpu.h>

/*
 * Per-CPU variables. DEFINE_PER_CPU puts the variable in .data..percpu, a
 * template in the init data; setup_per_cpu_areas() gives every possible CPU
 * a copy of it (before the template is freed with the rest of init memory),
 * and per_cpu_offset(cpu) is the distance from the template to CPU cpu's
 * copy. Never touch a per-CPU variable by name: go through
 *
 *   per_cpu(var, cpu)        CPU cpu's copy, an lvalue
 *   per_cpu_ptr(&var, cpu)   its address
 *   this_cpu_ptr(&var)       the address of this CPU's copy
 *   this_cpu_read(var), this_cpu_write(var, v), this_cpu_inc(var),
 *   this_cpu_dec(var), this_cpu_add(var, n)
 *                            one instruction on this CPU's copy (scalars)
 *
 * Before setup_per_cpu_areas() the boot CPU's offset is 0: it works on the
 * template itself, whose contents then become every CPU's initial values.
 */
#define DECLARE_PER_CPU(type, name) extern __typeof__(type) name
#define DEFINE_PER_CPU(type, name) \
	__section(".data..percpu") __typeof__(type) name

/*
 * An export of a per-CPU variable is its template address, as for any
 * symbol: the module that imports it adds per-CPU offsets to it.
 */
#define EXPORT_PER_CPU_SYMBOL(var) EXPORT_SYMBOL(var)
#define EXPORT_PER_CPU_SYMBOL_GPL(var) EXPORT_SYMBOL_GPL(var)

extern unsigned long __per_cpu_offset[NR_CPUS];
/*
 * The template: the kernel's variables from __per_cpu_start, then the
 * reserve for modules' (kernel/module/percpu.c) from __per_cpu_module_start
 * to __per_cpu_end.
 */
extern char __per_cpu_start[], __per_cpu_module_start[], __per_cpu_end[];

/* This CPU's offset, kept in its own area so that %gs can reach it. */
DECLARE_PER_CPU(unsigned long, this_cpu_off);

/* ptr + off, hidden from the compiler: the result is not within *ptr. */
#define __pcpu_shift(ptr, off)                       \
	({                                           \
		unsigned long __pcpu_p;              \
		asm("" : "=r"(__pcpu_p) : "0"(ptr)); \
		(typeof(ptr))(__pcpu_p + (off));     \
	})

#define per_cpu_offset(cpu) (__per_cpu_offset[cpu])
#define per_cpu_ptr(ptr, cpu) __pcpu_shift(ptr, per_cpu_offset(cpu))
#define per_cpu(var, cpu) (*per_cpu_ptr(&(var), cpu))
#define this_cpu_ptr(ptr) __pcpu_shift(ptr, this_cpu_read(this_cpu_off))

/* This CPU's copy of var, an lvalue; preemption off until put_cpu_var(). */
#define get_cpu_var(var)              \
	(*({                          \
		preempt_disable();    \
		this_cpu_ptr(&(var)); \
	}))
#define put_cpu_var(var)          \
	do {                      \
		(void)&(var);     \
		preempt_enable(); \
	} while (0)

void setup_per_cpu_areas(void);

/* For get_cpu_var(), last: <linux/preempt.h> includes this file. */
#include <linux/preempt.h>

#endif /* _LINUX_PERCPU_H */
