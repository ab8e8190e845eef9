// SPDX-License-Identifier: GPL-2.0
/*
 * Modules and jump labels, under icount: the instructions a load and an
 * unload take (whole, and the jump-label part per entry), and a flip of a
 * key with sites in the kernel and in three modules (the goal: the same
 * 3 sync rounds as a key of the kernel alone), and the load and unload of
 * a module with K keys of its own, K = 1, 16, 64 (jlm_keysK: a site on
 * each key and a static call site per key): the sync rounds, batches and
 * sites written (the goal: the same few rounds for every K).
 */
#include <linux/kernel.h>
#include <linux/bench.h>
#include <linux/err.h>
#include <linux/jump_label_table.h>
#include <linux/module.h>
#include <linux/text-patching.h>
#include <fixtures/jump_label_modules.h>

static const char *const jlmb_modules[] = {
	"jlm_core_user",
	"jlm_base",
	"jlm_base_user",
};

/* load_module(name), its instructions in *t: the module, or NULL (said). */
static struct module *jlmb_timed_load(const char *name, u64 *t)
{
	u64 empty = bench_empty_region(), t0;
	struct module *mod;

	t0 = bench_cycles();
	mod = load_module(name);
	*t = bench_cycles() - t0 - empty;
	if (!IS_ERR(mod))
		return mod;
	pr_err("bench: load_module(%s): %ld\n", name, PTR_ERR(mod));
	return NULL;
}

/* delete_module(name), its instructions in *t: 0, or its error (said). */
static int jlmb_timed_delete(const char *name, u64 *t)
{
	u64 empty = bench_empty_region(), t0;
	int ret;

	t0 = bench_cycles();
	ret = delete_module(name);
	*t = bench_cycles() - t0 - empty;
	if (ret)
		pr_err("bench: delete_module(%s): %d\n", name, ret);
	return ret;
}

static struct module *jlmb_load(const char *name)
{
	struct module *mod;
	char params[64];
	u64 t, jl;

	mod = jlmb_timed_load(name, &t);
	if (!mod)
		return NULL;
	jl = jump_label_stats.module_add_cycles;
	snprintf(params, sizeof(params), "module=%s,entries=%u", name,
		 mod->num_jump_entries);
	bench_report("module_load_insns", params, 100 * t, "insns");
	bench_report("module_jump_label_insns", params, 100 * jl, "insns");
	if (mod->num_jump_entries)
		bench_report("module_jump_label_insns_per_entry", params,
			     100 * jl / mod->num_jump_entries, "insns");
	return mod;
}

static void jlmb_unload(const char *name)
{
	char params[64];
	u64 t;

	if (jlmb_timed_delete(name, &t))
		return;
	snprintf(params, sizeof(params), "module=%s", name);
	bench_report("module_unload_insns", params, 100 * t, "insns");
}

/* The engine's counters from before to now, in bench_report()'s units. */
static void jlmb_report_patching(const char *what, const char *params,
				 const struct text_poke_stats *before)
{
	struct text_poke_stats now = text_poke_get_stats();
	char name[48];

	snprintf(name, sizeof(name), "module_%s_sync_rounds", what);
	bench_report(name, params,
		     100 * (now.sync_rounds - before->sync_rounds), "rounds");
	snprintf(name, sizeof(name), "module_%s_batches", what);
	bench_report(name, params, 100 * (now.batches - before->batches),
		     "batches");
	snprintf(name, sizeof(name), "module_%s_sites", what);
	bench_report(name, params, 100 * (now.sites - before->sites), "sites");
}

/* Loads and unloads jlm_keysK: what each patches, and costs. */
static void jlmb_keys(unsigned int k)
{
	struct text_poke_stats before;
	char name[16], params[48];
	u64 t;

	snprintf(name, sizeof(name), "jlm_keys%u", k);
	snprintf(params, sizeof(params), "keys=%u", k);
	before = text_poke_get_stats();
	if (!jlmb_timed_load(name, &t))
		return;
	jlmb_report_patching("load", params, &before);
	bench_report("module_load_keys_insns", params, 100 * t, "insns");
	before = text_poke_get_stats();
	if (jlmb_timed_delete(name, &t))
		return;
	jlmb_report_patching("unload", params, &before);
	bench_report("module_unload_keys_insns", params, 100 * t, "insns");
}

/* One enable and one disable of jlm_core_false; figures per flip. */
static void jlmb_flip(unsigned int modules)
{
	struct text_poke_stats before = text_poke_get_stats();
	u64 empty = bench_empty_region(), t0, t;
	char params[64];

	t0 = bench_cycles();
	static_branch_enable(&jlm_core_false);
	static_branch_disable(&jlm_core_false);
	t = bench_cycles() - t0 - empty;
	snprintf(params, sizeof(params),
		 "key=jlm_core_false,modules=%u,sites=%lu", modules,
		 (text_poke_get_stats().sites - before.sites) / 2);
	bench_report("flip_insns", params, 50 * t, "insns");
	bench_report(
		"flip_sync_rounds", params,
		50 * (text_poke_get_stats().sync_rounds - before.sync_rounds),
		"rounds");
	bench_report("flip_batches", params,
		     50 * (text_poke_get_stats().batches - before.batches),
		     "batches");
}

static void bench_modules(void)
{
	unsigned int i, loaded = 0;

	jlmb_flip(0);
	for (i = 0; i < ARRAY_SIZE(jlmb_modules); i++)
		loaded += jlmb_load(jlmb_modules[i]) != NULL;
	jlmb_flip(loaded);
	for (i = ARRAY_SIZE(jlmb_modules); i-- > 0;)
		jlmb_unload(jlmb_modules[i]);
	jlmb_keys(1);
	jlmb_keys(16);
	jlmb_keys(64);
}
bench_case("modules", bench_modules);
