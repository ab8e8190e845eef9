// SPDX-License-Identifier: GPL-2.0
/*
 * Instructions and branches counted by single-stepping (<linux/bench.h>):
 * with the trap flag set, the CPU traps after every instruction, and the
 * trap looks at the instruction that just ran (the previous trap's ip):
 * one instruction, a branch or not (asm/bench_step.h), at a static branch
 * site or not (a sorted copy of the jump table's site addresses), in
 * which function (kallsyms; the first BENCH_STEP_FUNCS seen). The
 * flag lives in EFLAGS, which the kernel never reloads from memory on
 * these paths (local_irq_restore() is a conditional sti; the switch saves
 * no flags), so it follows the CPU from task to task. The trap clears it
 * once bench_step_stop() has ended the session.
 */
#include <linux/kernel.h>
#include <linux/bench.h>
#include <linux/jump_label_table.h>
#include <linux/kallsyms.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <asm/bench_step.h>
#include <asm/bench_trace.h>
#include <asm/traps.h>

#define BENCH_STEP_KEYS 64
#define BENCH_STEP_FUNCS 128

struct step_site {
	unsigned long addr;
	struct static_key *key;
	u64 hits;
};

static struct {
	int active;
	unsigned int cpu;
	unsigned long prev_ip;
	struct bench_step_counts c;
	struct step_site *sites;
	unsigned int nr_sites;
	struct {
		struct static_key *key;
		u64 hits;
	} keys[BENCH_STEP_KEYS];
	unsigned int nr_keys;
	struct bench_step_func funcs[BENCH_STEP_FUNCS];
	unsigned int nr_funcs;
} bstep;

#ifdef CONFIG_JUMP_LABEL
static int step_site_cmp(const void *a, const void *b)
{
	const struct step_site *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The kernel's static branch sites, sorted by address. */
static int bench_step_load_sites(void)
{
	struct jump_entry *e;
	unsigned int n = 0;

	bstep.sites = kcalloc(__stop___jump_table - __start___jump_table,
			      sizeof(*bstep.sites), GFP_KERNEL);
	if (!bstep.sites)
		return -ENOMEM;
	for (e = __start___jump_table; e < __stop___jump_table; e++) {
		if (jump_entry_is_init(e)) /* freed by now */
			continue;
		bstep.sites[n].addr = jump_entry_code(e);
		bstep.sites[n].key = jump_entry_key(e);
		n++;
	}
	bstep.nr_sites = n;
	sort(bstep.sites, n, sizeof(*bstep.sites), step_site_cmp, NULL);
	return 0;
}
#else
/* Without patching there are no sites: the keys are plain loads. */
static int bench_step_load_sites(void)
{
	return 0;
}
#endif

static struct step_site *step_site_find(unsigned long ip)
{
	unsigned int lo = 0, hi = bstep.nr_sites;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (bstep.sites[mid].addr == ip)
			return &bstep.sites[mid];
		if (bstep.sites[mid].addr < ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* The function holding ip (kallsyms), or NULL once the table is full. */
static struct bench_step_func *bench_step_func(unsigned long ip)
{
	unsigned long size, off;
	const char *name = kallsyms_lookup(ip, &size, &off);
	unsigned int i;

	for (i = 0; i < bstep.nr_funcs; i++)
		if (bstep.funcs[i].start == ip - off)
			return &bstep.funcs[i];
	if (i == BENCH_STEP_FUNCS)
		return NULL;
	bstep.funcs[i] = (struct bench_step_func){ .start = ip - off,
						   .name = name ? name : "?" };
	bstep.nr_funcs++;
	return &bstep.funcs[i];
}

static void bench_step_account(unsigned long ip)
{
	enum insn_branch kind = insn_branch_kind((const u8 *)ip);
	struct step_site *site = step_site_find(ip);
	struct bench_step_func *f = bench_step_func(ip);

	bstep.c.insns++;
	bstep.c.branches += kind != INSN_NOT_BRANCH;
	bstep.c.cond_branches += kind == INSN_BRANCH_COND;
	if (f) {
		f->c.insns++;
		f->c.branches += kind != INSN_NOT_BRANCH;
		f->c.cond_branches += kind == INSN_BRANCH_COND;
		f->c.sites += site != NULL;
	}
	if (site) {
		site->hits++;
		bstep.c.sites++;
	}
}

/*
 * After every instruction of the session; then once more to stop. An
 * sti about to run is done here instead (IF set in the frame the trap
 * returns through), and counted: the instruction that follows an sti
 * runs in its interrupt shadow, and QEMU raises no single-step trap
 * after that one, which would leave the next instruction uncounted. The
 * shadow itself does not matter here: nothing interrupts a benchmark.
 */
static bool bench_step_trap(struct pt_regs *regs)
{
	if (!READ_ONCE(bstep.active) || smp_processor_id() != bstep.cpu) {
		regs->flags &= ~X86_EFLAGS_TF;
		return true;
	}
	if (bstep.prev_ip)
		bench_step_account(bstep.prev_ip);
	bench_trace_step(bstep.prev_ip, regs);
	if (insn_is_sti((const u8 *)regs->ip)) {
		bench_step_account(regs->ip);
		regs->flags |= X86_EFLAGS_IF;
		regs->ip++;
		bench_trace_step(regs->ip - 1, regs);
	}
	bstep.prev_ip = regs->ip;
	return true;
}

int bench_step_start(void)
{
	int err;

	memset(&bstep.c, 0, sizeof(bstep.c));
	bstep.nr_keys = 0;
	bstep.nr_funcs = 0;
	bstep.prev_ip = 0;
	err = bench_step_load_sites();
	if (err)
		return err;
	bstep.cpu = smp_processor_id();
	set_debug_trap_hook(bench_step_trap);
	WRITE_ONCE(bstep.active, 1);
	arch_single_step_on();
	return 0;
}

/* The sites that ran, summed per key, in the order of their addresses. */
static void bench_step_sum_keys(void)
{
	unsigned int i, k;

	for (i = 0; i < bstep.nr_sites; i++) {
		if (!bstep.sites[i].hits)
			continue;
		for (k = 0; k < bstep.nr_keys; k++)
			if (bstep.keys[k].key == bstep.sites[i].key)
				break;
		if (k == bstep.nr_keys && k < BENCH_STEP_KEYS) {
			bstep.keys[k].key = bstep.sites[i].key;
			bstep.keys[k].hits = 0;
			bstep.nr_keys++;
		}
		if (k < bstep.nr_keys)
			bstep.keys[k].hits += bstep.sites[i].hits;
	}
}

void bench_step_stop(struct bench_step_counts *c)
{
	WRITE_ONCE(bstep.active, 0);
	/* The next instruction trapped, and the trap cleared the flag. */
	set_debug_trap_hook(NULL);
	*c = bstep.c;
	bench_step_sum_keys();
	kfree(bstep.sites);
	bstep.sites = NULL;
	bstep.nr_sites = 0;
}

void bench_step_keys(void (*fn)(struct static_key *key, u64 hits, void *priv),
		     void *priv)
{
	unsigned int k;

	for (k = 0; k < bstep.nr_keys; k++)
		fn(bstep.keys[k].key, bstep.keys[k].hits, priv);
}

void bench_step_funcs(void (*fn)(const struct bench_step_func *f, void *priv),
		      void *priv)
{
	unsigned int i;

	for (i = 0; i < bstep.nr_funcs; i++)
		fn(&bstep.funcs[i], priv);
}
