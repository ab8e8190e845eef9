/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_MODULE_MEM_H
#define _LINUX_MODULE_MEM_H

/*
 * A module's memory, one region per kind, each page-aligned in the module
 * area (MODULES_VADDR..MODULES_END, within +-2 GiB of the kernel for
 * 32-bit relocations) and mapped W^X: text RX, rodata R, ro_after_init RW
 * until init returns then R, data (and bss) RW NX. The init regions are
 * freed once init returns 0 (base becomes NULL).
 *
 * In a header of its own, with no includes, because the loader's pure part
 * (<linux/moduleloader.h>) also builds on the host for the fuzzer.
 */
enum mod_mem_type {
	MOD_TEXT,
	MOD_RODATA,
	MOD_RO_AFTER_INIT,
	MOD_DATA,
	MOD_INIT_TEXT,
	MOD_INIT_RODATA,
	MOD_INIT_DATA,
	MOD_MEM_NUM_TYPES,
};

#endif /* _LINUX_MODULE_MEM_H */
