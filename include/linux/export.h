/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_EXPORT_H
#define _LINUX_EXPORT_H

#include <linux/compiler.h>

/*
 * Symbols the kernel (or a module) offers to modules. EXPORT_SYMBOL(sym)
 * adds {&sym, "sym"} to __ksymtab, EXPORT_SYMBOL_GPL(sym) to __ksymtab_gpl:
 * only modules whose MODULE_LICENSE() is GPL-compatible may use those.
 * Each entry is also the object symbol __ksymtab_<sym> (or
 * __ksymtab_gpl_<sym>), which is how scripts/modpost.py reads the exports
 * of vmlinux and of modules without running anything (it tells the two
 * kinds apart by the section holding the symbol, not by its name).
 *
 * The kernel's tables: [__start___ksymtab, __stop___ksymtab) and
 * [__start___ksymtab_gpl, __stop___ksymtab_gpl), sorted by name: built in,
 * each entry has an input section of its own, __ksymtab+<sym>, and the
 * linker script lays them out in the order of their names, so that the
 * module loader finds an export by binary search. A module's tables are
 * its sections __ksymtab and __ksymtab_gpl, in link order.
 */
struct kernel_symbol {
	unsigned long value;
	const char *name;
};

/*
 * One section for all in a module, and where kernel code is linked without
 * the kernel's linker script (tests/fuzz/engine, -DEXPORT_LINK_ORDER):
 * there the linker's own __start___ksymtab and __stop___ksymtab bound
 * the table, which needs a single section of that name.
 */
#if defined(MODULE) || defined(EXPORT_LINK_ORDER)
#define __KSYMTAB_SECTION(sec, sym) sec
#else
#define __KSYMTAB_SECTION(sec, sym) sec "+" #sym
#endif

#define ___EXPORT_SYMBOL(sym, sec, tag)                                     \
	extern typeof(sym) sym;                                             \
	static const char __kstrtab_##sym[] __used                          \
		__section("__ksymtab_strings") __aligned(1) = #sym;         \
	const struct kernel_symbol __ksymtab##tag##_##sym __used            \
		__section(__KSYMTAB_SECTION(sec, sym)) __aligned(8) = {     \
		(unsigned long)&sym, __kstrtab_##sym                        \
	}

#define EXPORT_SYMBOL(sym) ___EXPORT_SYMBOL(sym, "__ksymtab", )
#define EXPORT_SYMBOL_GPL(sym) ___EXPORT_SYMBOL(sym, "__ksymtab_gpl", _gpl)

extern const struct kernel_symbol __start___ksymtab[], __stop___ksymtab[];
extern const struct kernel_symbol __start___ksymtab_gpl[];
extern const struct kernel_symbol __stop___ksymtab_gpl[];

#endif /* _LINUX_EXPORT_H */
