// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU areas: a copy of the .data..percpu template for every possible
 * CPU, in frames of its own; each CPU's GS base holds the offset from the
 * template to its copy (<asm/percpu.h>). The offset, from the image in the
 * top 2 GiB down to the direct map, is a canonical negative number, as a
 * GS base must be.
 */
#define pr_fmt(fmt) "percpu: " fmt

#include <linux/kernel.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <asm/processor.h>

/* smp_processor_id(), this_cpu_ptr() and per_cpu() in a module read these. */
DEFINE_PER_CPU(unsigned int, cpu_number);
EXPORT_SYMBOL(cpu_number);
DEFINE_PER_CPU(unsigned long, this_cpu_off);
EXPORT_SYMBOL(this_cpu_off);
unsigned long __per_cpu_offset[NR_CPUS] __ro_after_init;
EXPORT_SYMBOL(__per_cpu_offset);

void __init setup_per_cpu_areas(void)
{
	size_t size = __per_cpu_end - __per_cpu_start;
	unsigned long pages = DIV_ROUND_UP(size, PAGE_SIZE);
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		phys_addr_t pa = alloc_frames(pages);
		char *area;

		if (!pa)
			panic("percpu: no memory for CPU%u's area", cpu);
		area = __va(pa);
		memcpy(area, __per_cpu_start, size);
		__per_cpu_offset[cpu] = area - __per_cpu_start;
		per_cpu(cpu_number, cpu) = cpu;
		per_cpu(this_cpu_off, cpu) = __per_cpu_offset[cpu];
	}
	/* The boot CPU leaves the template for its own copy. */
	wrmsr(MSR_GS_BASE, __per_cpu_offset[0]);
	pr_info("%u areas of %zu bytes\n", num_possible_cpus(), size);
}
