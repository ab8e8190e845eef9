/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_KALLSYMS_H
#define _LINUX_KALLSYMS_H

#include <linux/types.h>

/*
 * sprint_symbol() writes "name+0x1a/0x40" (offset/size) for addr into buf,
 * or "0x..." when addr lies in no known symbol; sprint_symbol_no_offset()
 * writes just the name.  Both write at most size bytes, NUL-terminated, and
 * return the length of the string.  %pS, %pB and %ps in vsprintf use them.
 */
int sprint_symbol(char *buf, size_t size, unsigned long addr);
int sprint_symbol_no_offset(char *buf, size_t size, unsigned long addr);
/*
 * For a return address: names the symbol containing addr - 1, since a call
 * that never returns may be the last instruction of its function (%pB).
 */
int sprint_backtrace(char *buf, size_t size, unsigned long addr);

/*
 * The symbol containing addr: its name, with its size and addr's offset
 * into it when the pointers are not NULL; NULL when no symbol contains addr.
 */
const char *kallsyms_lookup(unsigned long addr, unsigned long *size,
			    unsigned long *offset);
/* The address of the symbol called name, or 0. */
unsigned long kallsyms_lookup_name(const char *name);

#endif /* _LINUX_KALLSYMS_H */
