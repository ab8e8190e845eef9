// SPDX-License-Identifier: GPL-2.0
/*
 * A jump table of Linux's size (bench=gen_*, make bench's y-table run):
 * JLTB_SITES sites over JLTB_KEYS keys, generated into this build by
 * scripts/gen_jump_table_bench.py (CONFIG_JUMP_LABEL_TABLE_BENCH_KEYS and
 * _SITES), in no product kernel. Figures, with params "entries=N" or
 * "keys=K,sites=S":
 *
 *   gen_table: the table's entries and bytes, jump_label_init()'s cost in
 *              all and per entry (the boot pass of kernel/jump_label/core.c);
 *   gen_flip:  one queued batch enabling every key, one disabling them:
 *              sync rounds, IPIs and instructions per batch and per site;
 *              and the instructions of an int3 hit, per hit, while the
 *              enable batch has int3 on every site.
 */
#include <linux/kernel.h>
#include <linux/bench.h>
#include <linux/jump_label.h>
#include <linux/jump_label_table.h>
#include <linux/smp.h>
#include <linux/text-patching.h>
#include <asm/text-patching-stats.h>

#define JLTB_SITE(k) n += static_branch_unlikely(&k);
#include <generated/jump_label_table_bench.h>

static void bench_gen_table(void)
{
	struct jump_label_stats *s = &jump_label_stats;
	u64 entry = sizeof(struct jump_entry);
	char params[32];

	snprintf(params, sizeof(params), "entries=%u", s->entries);
	bench_report("table_entries", params, 100ULL * s->entries, "entries");
	bench_report("table_keys", params, 100ULL * s->keys, "keys");
	bench_report("table_bytes", params, 100 * entry * s->entries, "bytes");
	bench_report("init_insns", params, 100 * s->init_cycles, "insns");
	bench_report("init_insns_per_entry", params,
		     s->entries ? 100 * s->init_cycles / s->entries : 0,
		     "insns");
}
bench_case("gen_table", bench_gen_table);

/* Runs every generated function: each of its sites once. */
static int jltb_run_all(void)
{
	unsigned int f;
	int n = 0;

	for (f = 0; f < ARRAY_SIZE(jltb_fns); f++)
		n += jltb_fns[f]();
	return n;
}

/* Queues every key's enable (or disable) and applies them: one batch. */
static int jltb_flip_all(bool enable)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(jltb_keys); i++) {
		if (enable)
			static_key_enable_queued(&jltb_keys[i]->key);
		else
			static_key_disable_queued(&jltb_keys[i]->key);
	}
	return static_key_apply_queued();
}

static u64 jltb_trapped;

/* With int3 on every site of the enable batch: all of them hit once. */
static void jltb_int3_hook(enum text_poke_step step)
{
	u64 empty = bench_empty_region(), t0;

	if (step != TEXT_POKE_INT3_WRITTEN)
		return;
	t0 = bench_cycles();
	jltb_run_all();
	jltb_trapped = bench_cycles() - t0 - empty;
}

/* One batch of the enable (or disable) of every key; its figures. */
static void jltb_report_batch(bool enable, u64 t, u64 rounds, u64 ipis)
{
	char params[64];

	snprintf(params, sizeof(params), "keys=%u,sites=%u,queued,%s",
		 JLTB_KEYS, JLTB_SITES, enable ? "enable" : "disable");
	bench_report("flip_insns", params, 100 * t, "insns");
	bench_report("flip_insns_per_site", params, 100 * t / JLTB_SITES,
		     "insns");
	bench_report("flip_sync_rounds", params, 100 * rounds, "rounds");
	bench_report("flip_ipis", params, 100 * ipis, "IPIs");
}

static void jltb_batch(bool enable)
{
	struct text_poke_stats before = text_poke_get_stats();
	unsigned long ipis = smp_stats.ipis_sent;
	u64 empty = bench_empty_region(), t0, t;
	int ret;

	t0 = bench_cycles();
	ret = jltb_flip_all(enable);
	t = bench_cycles() - t0 - empty;
	if (ret) {
		pr_err("bench: gen_flip: static_key_apply_queued() = %d\n",
		       ret);
		return;
	}
	jltb_report_batch(enable, t,
			  text_poke_get_stats().sync_rounds -
				  before.sync_rounds,
			  smp_stats.ipis_sent - ipis);
}

static void bench_gen_flip(void)
{
	u64 empty, t0, plain;
	char params[48];
	int ret;

	jltb_batch(true);
	jltb_batch(false);

	/* int3 per hit: the enable again, every site run under its int3. */
	jltb_trapped = 0;
	text_poke_test_hook = jltb_int3_hook;
	ret = jltb_flip_all(true);
	text_poke_test_hook = NULL;
	empty = bench_empty_region();
	t0 = bench_cycles();
	jltb_run_all();
	plain = bench_cycles() - t0 - empty;
	if (!ret)
		ret = jltb_flip_all(false);
	if (ret || jltb_trapped <= plain) {
		pr_err("bench: gen_flip: no int3 figure (apply %d, %llu trapped, %llu plain)\n",
		       ret, jltb_trapped, plain);
		return;
	}
	snprintf(params, sizeof(params), "batch=%u,keys=%u,queued", JLTB_SITES,
		 JLTB_KEYS);
	bench_report("int3_insns", params,
		     100 * (jltb_trapped - plain) / JLTB_SITES, "insns");
}
bench_case("gen_flip", bench_gen_flip);
