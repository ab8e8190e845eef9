/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel image: loaded by GRUB at physical 1 MiB, run at
 * __KERNEL_VIRT_BASE + 1 MiB. Every region the page tables treat differently
 * (text, rodata, data, ro_after_init, init text, init data, bss) starts and
 * ends on a page boundary so that its permissions can be exact.
 */
#include <asm/page.h>

#ifdef CONFIG_MODULE_PERCPU_RESERVE
#define PERCPU_MODULE_RESERVE CONFIG_MODULE_PERCPU_RESERVE
#else
#define PERCPU_MODULE_RESERVE 0
#endif

OUTPUT_FORMAT("elf64-x86-64")
OUTPUT_ARCH(i386:x86-64)
ENTRY(startup_32)

PHDRS {
	text PT_LOAD FLAGS(5);
	rodata PT_LOAD FLAGS(4);
	data PT_LOAD FLAGS(6);
	init PT_LOAD FLAGS(7);
	bss PT_LOAD FLAGS(6);
}

#define LMA(sec) AT(ADDR(sec) - __KERNEL_VIRT_BASE)

/* jiffies is the u64 jiffies_64 read as an unsigned long (kernel/time/tick.c). */
jiffies = jiffies_64;

SECTIONS
{
	. = __KERNEL_VIRT_BASE + __KERNEL_PHYS_LOAD;
	_text = .;

	.text : LMA(.text) {
		KEEP(*(.multiboot))
		*(.head.text)
		_stext = .;
		/* Sites of the flip benchmarks (<linux/bench.h>). */
		__bench_sites_start = .;
		*(SORT_BY_NAME(.text.bench_sites.*))
		__bench_sites_end = .;
#ifndef CONFIG_TEXT_LAYOUT_LINKORDER
		/*
		 * The entry code (entry_64.o, the first of the hot objects,
		 * Makefile.layout) starts 16 bytes into a 64-byte line,
		 * whatever the sites before it weigh: of the four offsets
		 * its 16-byte alignment allows, 16 and 32 have a pipe round
		 * trip run the fewest lines (scripts/bench_footprint.py).
		 */
		. = ALIGN(. - 16, 64) + 16;
#endif
		*(.text.hot .text.hot.*)
#ifdef CONFIG_TEXT_LAYOUT_LINKORDER
		*(.text .text.*)
#else
		/*
		 * GCC's cold code (__cold functions, the .cold parts it
		 * splits off others) after all the rest: out of the pages
		 * and cache sets of the hot paths (Documentation/footprint.rst).
		 */
		*(.text .text.[!u]*)
		*(.text.unlikely .text.unlikely.*)
#endif
		*(.fixup)
		/*
		 * Interrupt handlers (__irq_entry) last, as in Linux: a new
		 * one moves no code before it. The icount benchmarks depend
		 * on where their code falls in pages (text_poke maps a page
		 * at a time), so the text before them should stay put.
		 */
		__irqentry_text_start = .;
		*(.irqentry.text)
		__irqentry_text_end = .;
		/* Static call trampolines (<asm/static_call.h>). */
		*(.static_call.text)
		_etext_code = .;
	} :text
	. = ALIGN(PAGE_SIZE);
	_etext = .;

	.rodata : LMA(.rodata) {
		__start_rodata = .;
		*(.rodata .rodata.*)
		. = ALIGN(8);
		__start___ex_table = .;
		KEEP(*(__ex_table))
		__stop___ex_table = .;
		. = ALIGN(8);
		__kunit_suites_start = .;
		KEEP(*(.kunit_test_suites))
		__kunit_suites_end = .;
		. = ALIGN(8);
		__bench_cases_start = .;
		KEEP(*(.bench_cases))
		__bench_cases_end = .;
		. = ALIGN(8);
		/* Tracepoints (kernel/tracepoint.c) and trace events. */
		__start___tracepoints_ptrs = .;
		KEEP(*(__tracepoints_ptrs))
		__stop___tracepoints_ptrs = .;
		__start_ftrace_events = .;
		KEEP(*(_ftrace_events))
		__stop_ftrace_events = .;
		*(__tracepoints_strings)
		/* Static calls: the build's table of sites, sorted (by
		 * scripts/static_call_table.c), and each trampoline's key. */
		. = ALIGN(8);
		__start_static_call_sites = .;
		KEEP(*(__static_call_sites))
		__stop_static_call_sites = .;
		__start_static_call_tramp_key = .;
		KEEP(*(.static_call_tramp_key))
		__stop_static_call_tramp_key = .;
		/* The keys of <linux/cpus_alone.h> (kernel/cpus_alone.c). */
		. = ALIGN(8);
		__start___cpus_alone_keys = .;
		KEEP(*(__cpus_alone_keys))
		__stop___cpus_alone_keys = .;
		. = ALIGN(8);
	} :rodata
	/*
	 * What modules may link against (<linux/export.h>): each table its
	 * own output section, so that scripts/modpost.py tells a GPL-only
	 * export from the others by the section holding its __ksymtab_gpl_X
	 * symbol, in vmlinux as in a .ko; each sorted by name (an input
	 * section per export, __ksymtab+<sym>), which find_symbol()'s binary
	 * search needs.
	 */
	__ksymtab : LMA(__ksymtab) {
		__start___ksymtab = .;
		KEEP(*(SORT_BY_NAME(__ksymtab+*)))
		__stop___ksymtab = .;
	} :rodata
	__ksymtab_gpl : LMA(__ksymtab_gpl) {
		__start___ksymtab_gpl = .;
		KEEP(*(SORT_BY_NAME(__ksymtab_gpl+*)))
		__stop___ksymtab_gpl = .;
	} :rodata
	__ksymtab_strings : LMA(__ksymtab_strings) {
		KEEP(*(__ksymtab_strings))
	} :rodata
	. = ALIGN(PAGE_SIZE);
	__end_rodata = .;

	/* Before .data, whose .data.* pattern would otherwise take it. */
	.data..ro_after_init : LMA(.data..ro_after_init) {
		_sdata = .;
		__start_ro_after_init = .;
		*(.data..ro_after_init)
		/* Sorted by jump_label_init(), then sealed with the rest. */
		. = ALIGN(8);
		__start___jump_table = .;
		KEEP(*(__jump_table))
		__stop___jump_table = .;
		/* The keys modules may name, sorted by scripts/jump_label_fixup. */
		. = ALIGN(8);
		__start___static_keys = .;
		KEEP(*(__static_keys))
		__stop___static_keys = .;
	} :data
	. = ALIGN(PAGE_SIZE);
	__end_ro_after_init = .;
	/* Not .data..*: those double-dot sections are placed on purpose. */
	.data : LMA(.data) {
		*(.data .data.[0-9a-zA-Z_]*)
		/* struct tracepoint: its key and its probes change. */
		. = ALIGN(8);
		*(__tracepoints)
	} :data
	. = ALIGN(PAGE_SIZE);
	_edata = .;

	.init.text : LMA(.init.text) {
		__init_begin = .;
		__init_text_begin = .;
		*(.init.text .init.text.*)
	} :init
	. = ALIGN(PAGE_SIZE);
	__init_text_end = .;
	.init.data : LMA(.init.data) {
		__init_data_begin = .;
		*(.init.data .init.data.*)
		*(.init.rodata .init.rodata.*)
		. = ALIGN(8);
		__start___param = .;
		KEEP(*(__param))
		__stop___param = .;
		. = ALIGN(8);
		__initcall_early_start = .;
		KEEP(*(.initcall.early.init))
		__initcall_early_end = .;
		__initcall_start = .;
		KEEP(*(.initcall.init))
		__initcall_end = .;
		/*
		 * The per-CPU template: copied for each CPU, then freed. Its
		 * tail is the reserve for modules' per-CPU variables (zeros):
		 * their template addresses lie there, in unmapped memory
		 * once init is freed, and their copies in every CPU's area.
		 */
		. = ALIGN(PAGE_SIZE);
		__per_cpu_start = .;
		*(.data..percpu)
		. = ALIGN(64);
		__per_cpu_module_start = .;
		. += PERCPU_MODULE_RESERVE;
		__per_cpu_end = .;
	} :init
	. = ALIGN(PAGE_SIZE);
	__init_data_end = .;
	__init_end = .;

	.bss : LMA(.bss) {
		__bss_start = .;
		*(.bss..page_aligned)
		*(.bss .bss.*)
		*(COMMON)
	} :bss
	. = ALIGN(PAGE_SIZE);
	__bss_stop = .;
	_end = .;

	/DISCARD/ : {
		*(.note .note.*)
		*(.comment)
		*(.eh_frame .eh_frame_hdr)
		*(.exit.text)
		/* A module's name and license; built in, MODULE_INFO() is empty. */
		*(.modinfo)
	}
}
