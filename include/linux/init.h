/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_INIT_H
#define _LINUX_INIT_H

#include <linux/compiler.h>
#include <linux/types.h>

/*
 * __init code and __initdata live in their own sections, freed and unmapped
 * by free_initmem() once boot is done. __ro_after_init data is writable
 * during boot and read-only after mark_rodata_ro().
 */
#define __init __section(".init.text") __cold
#define __initdata __section(".init.data")
#define __initconst __section(".init.rodata")
#define __ro_after_init __section(".data..ro_after_init")
/* A module's exit: ordinary text (built in, module_exit() drops it). */
#define __exit __cold

typedef int (*initcall_t)(void);

#define __define_initcall(fn, sec)                                   \
	static initcall_t __UNIQUE_ID(initcall_##fn) __used           \
		__section(sec) = fn

/*
 * Called in link order by do_initcalls(), after the core is up (static
 * keys included).
 */
#define device_initcall(fn) __define_initcall(fn, ".initcall.init")
#define late_initcall(fn) __define_initcall(fn, ".initcall.init")

/*
 * Called by do_early_initcalls(): all CPUs are up, interrupts are on, but
 * jump_label_init() has not run yet (static key tests of the early state).
 */
#define early_initcall(fn) __define_initcall(fn, ".initcall.early.init")

void do_early_initcalls(void);
void do_initcalls(void);
void free_initmem(void);
void mark_rodata_ro(void);

extern char __init_begin[], __init_end[];
extern char __init_text_begin[], __init_text_end[];
extern char __init_data_begin[], __init_data_end[];
extern char _text[], _stext[], _etext[], __start_rodata[], __end_rodata[];
extern char _sdata[], _edata[], __start_ro_after_init[], __end_ro_after_init[];
extern char __bss_start[], __bss_stop[], _end[];

/* True while __init text and data are still mapped. */
extern bool init_mem_available;

#endif /* _LINUX_INIT_H */
