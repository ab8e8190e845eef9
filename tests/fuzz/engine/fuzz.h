/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _FUZZ_ENGINE_FUZZ_H
#define _FUZZ_ENGINE_FUZZ_H

/*
 * Between the fuzzer's kernel (kernel.c) and its driver (fuzz.c), both
 * built against the kernel's headers.
 */
#include <linux/atomic.h>
#include <linux/types.h>

/* kernel.c */
void fuzz_kernel_init(void);
void fuzz_kernel_exit(void);
/* A per-CPU area for a new thread on @cpu, named @name: its GS base. */
unsigned long fuzz_thread_gs(unsigned int cpu, const char *name);
/* Delayed work items queued and not yet started. */
unsigned int fuzz_work_pending(void);

extern atomic_t fuzz_warnings; /* every WARN so far */
extern atomic_t fuzz_live_allocs; /* kmalloc()s not yet freed */
extern _Thread_local unsigned int fuzz_fail_alloc_after;
extern bool fuzz_quiet; /* printk() says nothing (set once) */
/* Prints always (the fuzzer's own verdicts, WARNs, panics). */
int fuzz_print(const char *fmt, ...) __printf(1, 2);
extern unsigned long fuzz_batches, fuzz_poked_sites; /* under text_mutex */
extern unsigned long fuzz_drop_write; /* the nth write is lost (0: none) */

/* fuzz.c */
/* The name of the fuzzer's object holding addr (%pS), with its extent. */
const char *fuzz_lookup(unsigned long addr, unsigned long *base,
			unsigned long *size);
/* True if [addr, addr + len) is fake text (the kernel's or a module's). */
bool fuzz_in_text(const void *addr, unsigned long len);

#endif /* _FUZZ_ENGINE_FUZZ_H */
