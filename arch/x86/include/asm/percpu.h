/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_PERCPU_H
#define _ASM_X86_PERCPU_H

#include <linux/compiler.h>

/*
 * The GS base of each CPU holds its per-CPU offset: the distance from the
 * template (.data..percpu, where the linker put every DEFINE_PER_CPU) to
 * this CPU's copy. So "%gs:var" addresses this CPU's copy of var, and one
 * instruction reads, writes or adds to it: an interrupt on this CPU sees
 * the operation either done or not done, never half done. The operations
 * take per-CPU variables (not pointers) of 1, 2, 4 or 8 bytes.
 */
#define __pcpu_size_check(var)                                       \
	_Static_assert(sizeof(var) == 1 || sizeof(var) == 2 ||       \
			       sizeof(var) == 4 || sizeof(var) == 8, \
		       "this_cpu_*() takes a 1, 2, 4 or 8-byte variable")

#define this_cpu_read(var)                                                     \
	({                                                                     \
		__pcpu_size_check(var);                                        \
		typeof(var) __pcpu_val;                                        \
		asm volatile("mov %%gs:%1, %0" : "=r"(__pcpu_val) : "m"(var)); \
		__pcpu_val;                                                    \
	})

#define this_cpu_write(var, val)                                               \
	do {                                                                   \
		__pcpu_size_check(var);                                        \
		typeof(var) __pcpu_val = (val);                                \
		asm volatile("mov %1, %%gs:%0" : "=m"(var) : "r"(__pcpu_val)); \
	} while (0)

#define this_cpu_add(var, val)                  \
	do {                                    \
		__pcpu_size_check(var);         \
		typeof(var) __pcpu_val = (val); \
		asm volatile("add %1, %%gs:%0"  \
			     : "+m"(var)        \
			     : "r"(__pcpu_val)  \
			     : "cc");           \
	} while (0)

#define this_cpu_inc(var) this_cpu_add(var, 1)
#define this_cpu_dec(var) this_cpu_add(var, -1)

#endif /* _ASM_X86_PERCPU_H */
