// SPDX-License-Identifier: GPL-2.0
/*
 * From head_64.S to start_kernel(), and the architecture's part of boot:
 * traps, the memory map, the frame allocator, the boot loader's modules,
 * the kernel page tables, the TSC, the CPUs and local APIC from ACPI, and
 * the per-CPU areas.
 */
#include <linux/kernel.h>
#include <linux/init.h>
#include <linux/mm.h>
#include <linux/module_blob.h>
#include <linux/percpu.h>
#include <linux/process.h>
#include <linux/string.h>
#include <asm/acpi.h>
#include <asm/apic.h>
#include <asm/pgtable.h>
#include <asm/processor.h>
#include <asm/serial.h>
#include <asm/setup.h>
#include <asm/text-patching.h>
#include <asm/traps.h>
#include <asm/tsc.h>

void start_kernel(void);
__visible void x86_64_start_kernel(u32 magic, u32 info);

static const char *const e820_names[] = {
	[E820_TYPE_RAM] = "usable", [E820_TYPE_RESERVED] = "reserved",
	[E820_TYPE_ACPI] = "ACPI data", [E820_TYPE_NVS] = "ACPI NVS",
	[E820_TYPE_UNUSABLE] = "unusable",
};

/*
 * The modules GRUB loaded stay where they are: their frames are reserved
 * before anything allocates (the page tables are next), and a module whose
 * range is not free RAM is left out. GRUB puts each at a page boundary,
 * so two modules never share a frame.
 */
static void __init reserve_boot_modules(void)
{
	unsigned int i;

	for (i = 0; i < boot_params.nr_modules; i++) {
		struct boot_module *b = &boot_params.modules[i];

		b->reserved = module_blob_reserve(b->name, b->start, b->end);
	}
}

/* Once the direct map is up: the reserved modules become the blobs. */
static void __init add_boot_modules(void)
{
	unsigned int i;

	for (i = 0; i < boot_params.nr_modules; i++) {
		struct boot_module *b = &boot_params.modules[i];

		if (!b->reserved)
			continue;
		if (!direct_mapped(b->start, b->end - b->start)) {
			pr_warn("modules: blob %s at [mem %#llx-%#llx) ignored: not in the direct map\n",
				b->name, b->start, b->end);
			continue;
		}
		/* The archive of modules and programs, or one of them. */
		if (!strcmp(b->name, INITRAMFS_BLOB))
			initramfs_unpack(__va(b->start), b->end - b->start);
		else if (!strncmp(b->name, "/bin/", 5))
			exec_prog_add(b->name, __va(b->start), b->end - b->start);
		else
			module_blob_add(b->name, __va(b->start), b->end - b->start);
	}
}

static void __init memory_init(void)
{
	phys_addr_t ignored = 0;
	unsigned int i;

	for (i = 0; i < boot_params.nr_e820; i++) {
		struct e820_entry *e = &boot_params.e820[i];
		const char *name = e->type < ARRAY_SIZE(e820_names) &&
				   e820_names[e->type] ? e820_names[e->type] :
							 "unknown";

		pr_info("BIOS-e820: [mem 0x%016llx-0x%016llx] %s\n", e->addr,
			e->addr + e->size - 1, name);
		if (e->type == E820_TYPE_RAM)
			ignored += frame_add_ram(e->addr, e->size);
	}
	if (ignored)
		pr_warn("Memory: %lluM of RAM at or above %dM ignored: the kernel manages physical memory below CONFIG_PHYS_MEM_MAX_MB=%d\n",
			(unsigned long long)ignored >> 20, CONFIG_PHYS_MEM_MAX_MB,
			CONFIG_PHYS_MEM_MAX_MB);
	/* Real-mode data and BIOS areas; then the image itself. */
	frame_reserve(0, 1UL << 20);
	frame_reserve(__pa_symbol(_text), _end - _text);
	reserve_boot_modules();
	pr_info("Memory: %luK/%luK available (%luK kernel image)\n",
		nr_free_frames() << 2, nr_total_frames() << 2,
		(unsigned long)(_end - _text) >> 10);
}

static void __init check_cpu(void)
{
	u32 a, b, c, d;

	cpuid(0x80000001, &a, &b, &c, &d);
	if (!(d & (1U << 20)))
		panic("this CPU has no NX bit: W^X page tables are impossible");
}

void __init setup_arch(void)
{
	check_cpu();
	trap_init();
	text_poke_init();
	memory_init();
	paging_init();
	add_boot_modules();
	tsc_init();
	if (acpi_boot_init())
		pr_warn("smp: no usable MADT: only the boot CPU will run\n");
	lapic_init();
	setup_per_cpu_areas();
}

__visible void __init x86_64_start_kernel(u32 magic, u32 info)
{
	/*
	 * Per-CPU data first, before anything may call smp_processor_id():
	 * offset 0, the template itself, until setup_per_cpu_areas().
	 */
	wrmsr(MSR_GS_BASE, 0);
	serial_init();
	multiboot2_parse(magic, info);
	start_kernel();
}
