/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_BENCH_H
#define _LINUX_BENCH_H

/*
 * Boot-time benchmarks, registered like KUnit suites and run instead of
 * them when the command line says bench=GLOB. Each case reports figures as
 * lines the host collects (scripts/bench.py):
 *
 *   BENCH {"name": "site_disabled_insns", "params": "", "value": 7.00, "unit": "insns"}
 *
 * and the run is reported as a KTAP suite "bench" (a case fails if it
 * reported nothing), so the test runner can check that the path works.
 *
 * Under QEMU -icount shift=0 rdtsc counts executed instructions, exactly and
 * reproducibly: bench_cycles() is that counter, and bench_empty_region()
 * the cost of an empty timed region, to subtract.
 */
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/types.h>
#include <asm/processor.h>

struct bench_case {
	const char *name;
	void (*run)(void);
};

#define bench_case(case_name, fn)                                          \
	static const struct bench_case __UNIQUE_ID(bench) __used             \
		__section(".bench_cases") __aligned(sizeof(void *)) = {     \
			.name = case_name,                                  \
			.run = fn,                                          \
		}

/* Prints one figure. value is in hundredths, printed with two decimals. */
void bench_report(const char *name, const char *params, u64 value_x100,
		  const char *unit);

/* Serialized instruction-count timestamps. */
static __always_inline u64 bench_cycles(void)
{
	u32 lo, hi;

	asm volatile("lfence; rdtsc; lfence" : "=a"(lo), "=d"(hi) : : "memory");
	return ((u64)hi << 32) | lo;
}

u64 bench_empty_region(void);

/*
 * The functions whose sites a flip benchmark patches: first in .text, so
 * that the pages they span, which a flip maps one at a time, do not move
 * when kernel code before them grows or shrinks. Each has a slot, and the
 * linker script lays the slots out in the order of their names. In this
 * order each function spans the fewest pages its size allows (the
 * 1,024-site static call's 9.2 KB: 3, not 4) and no site of a flip's
 * lies across a page boundary (where a write maps two pages), with no
 * padding but the page alignment of the last slot (64 bytes now). The
 * page counts hold while the boot header before them is at most 0x180
 * bytes (0x12a now) and the functions keep their sizes; scripts/bench.py
 * warns of a function that spans more pages than its size needs.
 */
#define __bench_sites(slot) __section(".text.bench_sites." __stringify(slot))
#define BENCH_SITES_JLB1024 __bench_sites(1)
#define BENCH_SITES_SCB1024 __bench_sites(2)
#define BENCH_SITES_JLB256 __bench_sites(3)
#define BENCH_SITES_SCB56 __bench_sites(4)
#define BENCH_SITES_JLB4 __bench_sites(5)
#define BENCH_SITES_JLB1 __bench_sites(6)
#define BENCH_SITES_JLB56 __bench_sites(7) __aligned(PAGE_SIZE)

/* Per-iteration cost of fn() over n calls, in hundredths, region-corrected. */
u64 bench_per_call_x100(int (*fn)(void), unsigned int n);

/*
 * Exact counts by single-stepping (arch/x86/bench/bench_step.c): between
 * bench_step_start() and bench_step_stop(), every instruction the calling
 * CPU runs traps once (x86 EFLAGS.TF) and is counted: a branch (any
 * control transfer: jcc, jmp, call, ret, ...) or not, at a static branch
 * site (CONFIG_JUMP_LABEL: an address of the jump table) or not. Neither
 * QEMU's icount nor the timed figures are involved; a trap costs a few
 * hundred instructions, so step hundreds of iterations, not millions. Only
 * the calling CPU is stepped (benchmarks run on one). The trap handler
 * counts in a static area: one session at a time.
 */
struct static_key;

struct bench_step_counts {
	u64 insns;		/* instructions run */
	u64 branches;		/* of which control transfers */
	u64 cond_branches;	/* of which conditional */
	u64 sites;		/* of which at a static branch site (JUMP_LABEL) */
};

/* 0, or -ENOMEM (no memory for the copy of the site addresses). */
int bench_step_start(void);
void bench_step_stop(struct bench_step_counts *c);
/* After a stop: fn for each key whose sites ran, with their executions. */
void bench_step_keys(void (*fn)(struct static_key *key, u64 hits, void *priv),
		     void *priv);

/* The same counts per function (the first 128 functions that ran). */
struct bench_step_func {
	unsigned long start;
	const char *name;
	struct bench_step_counts c;
};

void bench_step_funcs(void (*fn)(const struct bench_step_func *f, void *priv),
		      void *priv);

/*
 * The instruction trace of a stepped session (arch/x86/kernel/
 * bench_trace.c): between bench_trace_start() (before bench_step_start())
 * and bench_trace_stop(), every stepped instruction is recorded into a
 * buffer of bytes bytes, its ip, the kind of control transfer, taken or
 * not, and the data address it reads. bench_trace_dump() prints the trace on the
 * console for the host's footprint model (scripts/bench_footprint.py);
 * bench_trace_free() frees it. 0, or -ENOMEM.
 */
int bench_trace_start(size_t bytes);
void bench_trace_stop(void);
void bench_trace_dump(const char *name);
void bench_trace_free(void);

/*
 * True when bench=GLOB was given; then bench_run_all() replaces KUnit. It
 * returns the number of failed cases, or -ENOENT when GLOB selects none.
 */
#ifdef CONFIG_BENCH
bool bench_requested(void);
int bench_run_all(void);
/* The same for the cases glob selects (the console's bench command). */
int bench_run_glob(const char *glob);
#else
static inline int bench_run_glob(const char *glob)
{
	return -ENOENT;
}

static inline bool bench_requested(void)
{
	return false;
}

static inline int bench_run_all(void)
{
	return 0;
}
#endif

#endif /* _LINUX_BENCH_H */
