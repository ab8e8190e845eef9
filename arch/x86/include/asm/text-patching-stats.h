/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_TEXT_PATCHING_STATS_H
#define _ASM_X86_TEXT_PATCHING_STATS_H

/*
 * The patch engine's counters and hooks, for its own tests only. Code
 * that patches text uses <asm/text-patching.h>; generic code reads the
 * counters through <linux/text-patching.h>.
 */
#include <linux/text-patching.h>

/* The counters themselves (generic code: text_poke_get_stats()). */
extern struct text_poke_stats text_poke_stats;

/* text_poke.batch=0 on the command line: one site per batch. */
extern bool text_poke_batching;

/* int3 traps emulated on cpu in NMI context (an NMI handler at a site). */
unsigned long text_poke_cpu_int3_nmi_hits(unsigned int cpu);

/*
 * text_poke.park=auto|on|off (the setter, for tests to parse with), what
 * it resolved to at boot, and whether CPUID says QEMU's TCG runs us.
 */
enum { TEXT_POKE_PARK_AUTO, TEXT_POKE_PARK_ON, TEXT_POKE_PARK_OFF };
struct kernel_param;
int text_poke_param_park(const char *val, const struct kernel_param *kp);
bool text_poke_parks(void);
bool text_poke_under_tcg(void);

/*
 * text_poke_test_hook, when set, is called on the patching CPU after these
 * protocol steps (CONFIG_TEXT_PATCH_TEST_HOOKS: the suites and benchmark
 * that act there; otherwise the call compiles away).
 */
enum text_poke_step {
	TEXT_POKE_INT3_WRITTEN,
	TEXT_POKE_TAILS_WRITTEN,
};
extern void (*text_poke_test_hook)(enum text_poke_step step);

#endif /* _ASM_X86_TEXT_PATCHING_STATS_H */
