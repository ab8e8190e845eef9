/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_IO_H
#define _ASM_X86_IO_H

#include <linux/types.h>

static inline void outb(u8 v, u16 port)
{
	asm volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}

static inline u8 inb(u16 port)
{
	u8 v;

	asm volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline void outl(u32 v, u16 port)
{
	asm volatile("outl %0, %1" : : "a"(v), "Nd"(port));
}

#endif /* _ASM_X86_IO_H */
