/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_BARRIER_H
#define _ASM_X86_BARRIER_H

#include <linux/compiler.h>

/*
 * x86 is TSO: loads are not reordered with loads, stores not with stores,
 * and a store is not reordered with an earlier load. The one reordering a
 * CPU may do is a later load passing an earlier store, which only a full
 * barrier (smp_mb()) forbids. Everything else needs only the compiler held
 * back.
 */
#define smp_mb() asm volatile("lock addl $0, -4(%%rsp)" ::: "memory", "cc")
#define smp_rmb() barrier()
#define smp_wmb() barrier()

#define smp_load_acquire(p) __atomic_load_n(p, __ATOMIC_ACQUIRE)
#define smp_store_release(p, v) __atomic_store_n(p, v, __ATOMIC_RELEASE)

#endif /* _ASM_X86_BARRIER_H */
