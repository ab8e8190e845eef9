// SPDX-License-Identifier: GPL-2.0
/*
 * Jump labels in modules: the test modules of tests/modules/jump_label/ are
 * loaded from the boot loader's blobs, their sites are checked byte by
 * byte (through static_key_for_each_site(), which walks the kernel's and
 * every module's entries) and their branches by calling them, across
 * flips, loads and unloads.
 */
#include <linux/kernel.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/init.h>
#include <linux/jump_label_arch.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <asm/text-patching-stats.h>
#include <fixtures/jump_label_modules.h>
#include <fixtures/mem_snapshot.h>
#include <fixtures/static_key_sites.h>
#include <kunit/test.h>

DEFINE_STATIC_KEY_FALSE(jlm_core_false);
EXPORT_SYMBOL_GPL(jlm_core_false);
DEFINE_STATIC_KEY_TRUE(jlm_core_true);
EXPORT_SYMBOL_GPL(jlm_core_true);
DEFINE_STATIC_KEY_TRUE_RO(jlm_core_ro);
EXPORT_SYMBOL_GPL(jlm_core_ro);

/* Away from its default before the seal, so that "set once" shows. */
static int __init jlm_core_ro_init(void)
{
	static_branch_disable(&jlm_core_ro);
	return 0;
}
device_initcall(jlm_core_ro_init);

/* The kernel's own sites on the exported keys. */
STATIC_KEY_TEST_UNLIKELY(jlm_kernel_false, &jlm_core_false);
STATIC_KEY_TEST_LIKELY(jlm_kernel_true, &jlm_core_true);

/*
 * The registered probes. jlm_register() also calls every branch of the
 * probe while its module is coming and counts the wrong ones: that is how
 * a module whose init fails is checked at all.
 */
static DEFINE_MUTEX(jlm_lock);
static struct jlm_probe *jlm_probes[8];
static unsigned int jlm_register_wrong;

static unsigned int jlm_wrong_branches(struct jlm_probe *probe)
{
	unsigned int i, wrong = 0;

	for (i = 0; i < probe->nr; i++)
		wrong += probe->branch[i]() !=
			 static_key_enabled(probe->key[i]);
	return wrong;
}

int jlm_register(struct jlm_probe *probe)
{
	unsigned int i;
	int ret = -ENOSPC;

	mutex_lock(&jlm_lock);
	jlm_register_wrong += jlm_wrong_branches(probe);
	for (i = 0; i < ARRAY_SIZE(jlm_probes); i++) {
		if (!jlm_probes[i]) {
			jlm_probes[i] = probe;
			ret = 0;
			break;
		}
	}
	mutex_unlock(&jlm_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(jlm_register);

void jlm_unregister(struct jlm_probe *probe)
{
	unsigned int i;

	mutex_lock(&jlm_lock);
	for (i = 0; i < ARRAY_SIZE(jlm_probes); i++)
		if (jlm_probes[i] == probe)
			jlm_probes[i] = NULL;
	mutex_unlock(&jlm_lock);
}
EXPORT_SYMBOL_GPL(jlm_unregister);

static struct jlm_probe *jlm_find(const char *name)
{
	struct jlm_probe *found = NULL;
	unsigned int i;

	mutex_lock(&jlm_lock);
	for (i = 0; i < ARRAY_SIZE(jlm_probes); i++)
		if (jlm_probes[i] && !strcmp(jlm_probes[i]->name, name))
			found = jlm_probes[i];
	mutex_unlock(&jlm_lock);
	return found;
}

/* What static_key_for_each_site() found for one key. */
struct jlm_site_count {
	unsigned int sites, wrong, in_modules, init;
	struct module *mod; /* if set: count only its sites */
};

static int jlm_count_site(struct jump_entry *entry, struct module *mod,
			  void *data)
{
	struct jlm_site_count *c = data;
	bool enabled = static_key_enabled(jump_entry_key(entry));

	if (c->mod && mod != c->mod)
		return 0;
	c->sites++;
	c->in_modules += mod != NULL;
	c->init += jump_entry_is_init(entry);
	c->wrong += !arch_jump_label_site_holds(
		entry, enabled ^ jump_entry_is_branch(entry));
	return 0;
}

static struct jlm_site_count jlm_sites(struct static_key *key,
				       struct module *mod)
{
	struct jlm_site_count c = { .mod = mod };

	static_key_for_each_site(key, jlm_count_site, &c);
	return c;
}

/* Loads name and finds its probe; NULL (after a failed EXPECT) if not. */
static struct jlm_probe *jlm_load(struct kunit *test, const char *name)
{
	struct module *mod = load_module(name);

	KUNIT_EXPECT_FALSE_MSG(test, IS_ERR(mod), "load_module(%s): %ld", name,
			       IS_ERR(mod) ? PTR_ERR(mod) : 0L);
	if (IS_ERR(mod))
		return NULL;
	return jlm_find(name);
}

static void jlm_unload(struct kunit *test, const char *name)
{
	KUNIT_EXPECT_EQ_MSG(test, delete_module(name), 0, "delete_module(%s)",
			    name);
}

static struct module *jlm_module(const char *name)
{
	struct module *mod;

	mutex_lock(&module_mutex);
	mod = find_module(name);
	mutex_unlock(&module_mutex);
	return mod;
}

/* Every branch of every loaded probe agrees with its key, and every site
 * of the four test keys holds its key's instruction. */
static void jlm_expect_all_right(struct kunit *test)
{
	struct static_key *keys[] = { &jlm_core_false.key, &jlm_core_true.key };
	unsigned int i, wrong = 0;

	mutex_lock(&jlm_lock);
	for (i = 0; i < ARRAY_SIZE(jlm_probes); i++)
		if (jlm_probes[i])
			wrong += jlm_wrong_branches(jlm_probes[i]);
	mutex_unlock(&jlm_lock);
	KUNIT_EXPECT_EQ(test, wrong, 0);
	for (i = 0; i < ARRAY_SIZE(keys); i++)
		KUNIT_EXPECT_EQ(test, jlm_sites(keys[i], NULL).wrong, 0);
	KUNIT_EXPECT_EQ(test, jlm_kernel_false(),
			static_branch_unlikely(&jlm_core_false) ? 1 : 0);
	KUNIT_EXPECT_EQ(test, jlm_kernel_true(),
			static_branch_likely(&jlm_core_true) ? 1 : 0);
}

/* Each case starts with the keys at their defaults and no jlm module. */
static int jlm_init(struct kunit *test)
{
	KUNIT_ASSERT_TRUE_MSG(
		test, module_blob_find("jlm_core_user"),
		"no jlm_core_user blob: the ISO carries no modules");
	KUNIT_ASSERT_FALSE(test, static_key_enabled(&jlm_core_false));
	KUNIT_ASSERT_TRUE(test, static_key_enabled(&jlm_core_true));
	KUNIT_ASSERT_FALSE(test, jlm_module("jlm_core_user") ||
					 jlm_module("jlm_base") ||
					 jlm_module("jlm_base_user"));
	jlm_register_wrong = 0;
	return 0;
}

/* Module sites start in their key's state and follow it; unload unlinks. */
static void jlm_test_core_keys(struct kunit *test)
{
	struct jlm_probe *probe = jlm_load(test, "jlm_core_user");
	struct module *mod = jlm_module("jlm_core_user");
	struct jlm_site_count c;

	KUNIT_ASSERT_TRUE(test, probe && mod);
	KUNIT_EXPECT_EQ(test, jlm_register_wrong, 0);
	c = jlm_sites(&jlm_core_false.key, mod);
	KUNIT_EXPECT_EQ(test, c.sites, 4);
	KUNIT_EXPECT_EQ(test, c.init, 0);
	KUNIT_EXPECT_EQ(test, jlm_sites(&jlm_core_true.key, mod).sites, 4);
	KUNIT_EXPECT_TRUE(test, static_key_linked(&jlm_core_false.key));
	jlm_expect_all_right(test);

	static_branch_enable(&jlm_core_false);
	static_branch_disable(&jlm_core_true);
	jlm_expect_all_right(test);
	static_branch_disable(&jlm_core_false);
	static_branch_enable(&jlm_core_true);
	jlm_expect_all_right(test);

	jlm_unload(test, "jlm_core_user");
	KUNIT_EXPECT_FALSE(test, static_key_linked(&jlm_core_false.key));
	KUNIT_EXPECT_FALSE(test, static_key_linked(&jlm_core_true.key));
	KUNIT_EXPECT_EQ(test, jlm_sites(&jlm_core_false.key, NULL).in_modules,
			0);
	KUNIT_EXPECT_TRUE(test,
			  static_key_entries(&jlm_core_false.key) != NULL);
	jlm_expect_all_right(test);
}

/* A key with sites in the kernel and in 3 modules flips in one batch. */
static void jlm_test_one_batch(struct kunit *test)
{
	struct text_poke_stats before;
	struct jlm_site_count c;
	unsigned int i;

	KUNIT_ASSERT_TRUE(test, jlm_load(test, "jlm_core_user"));
	KUNIT_ASSERT_TRUE(test, jlm_load(test, "jlm_base"));
	KUNIT_ASSERT_TRUE(test, jlm_load(test, "jlm_base_user"));
	c = jlm_sites(&jlm_core_false.key, NULL);
	KUNIT_EXPECT_EQ(test, c.in_modules, 4 + 1 + 1);
	KUNIT_EXPECT_GT(test, c.sites, c.in_modules);
	for (i = 0; i < 2; i++) {
		before = text_poke_stats;
		if (i == 0)
			static_branch_enable(&jlm_core_false);
		else
			static_branch_disable(&jlm_core_false);
		KUNIT_EXPECT_EQ(test, text_poke_stats.batches - before.batches,
				1);
		KUNIT_EXPECT_EQ(
			test, text_poke_stats.sync_rounds - before.sync_rounds,
			3);
		KUNIT_EXPECT_EQ(test, text_poke_stats.sites - before.sites,
				c.sites);
		jlm_expect_all_right(test);
	}
	KUNIT_EXPECT_EQ(test, jlm_register_wrong, 0);
	jlm_unload(test, "jlm_base_user");
	jlm_unload(test, "jlm_base");
	jlm_unload(test, "jlm_core_user");
	KUNIT_EXPECT_EQ(test, jlm_sites(&jlm_core_false.key, NULL).in_modules,
			0);
}

/* Loaded while its keys are flipped, a module's sites start flipped. */
static void jlm_test_load_enabled(struct kunit *test)
{
	static_branch_enable(&jlm_core_false);
	static_branch_disable(&jlm_core_true);
	KUNIT_EXPECT_TRUE(test, jlm_load(test, "jlm_core_user"));
	KUNIT_EXPECT_EQ(test, jlm_register_wrong, 0);
	jlm_expect_all_right(test);
	static_branch_disable(&jlm_core_false);
	static_branch_enable(&jlm_core_true);
	jlm_expect_all_right(test);
	jlm_unload(test, "jlm_core_user");
	/* And flips after the unload touch the kernel's sites only. */
	static_branch_enable(&jlm_core_false);
	jlm_expect_all_right(test);
	static_branch_disable(&jlm_core_false);
	jlm_expect_all_right(test);
}

/* Keys defined in a module, used by another, which pins the first. */
static void jlm_test_module_keys(struct kunit *test)
{
	struct jlm_probe *base, *user;
	struct static_key *kf;
	struct text_poke_stats before;

	base = jlm_load(test, "jlm_base");
	user = jlm_load(test, "jlm_base_user");
	KUNIT_ASSERT_TRUE(test, base && user);
	kf = base->key[0];
	KUNIT_EXPECT_EQ(test, jlm_sites(kf, NULL).sites, 4);
	KUNIT_EXPECT_EQ(test, jlm_sites(kf, jlm_module("jlm_base_user")).sites,
			2);
	KUNIT_EXPECT_EQ(test, delete_module("jlm_base"), -EBUSY);
	before = text_poke_stats;
	static_key_enable(kf);
	static_key_disable(base->key[2]);
	KUNIT_EXPECT_EQ(test, text_poke_stats.batches - before.batches, 2);
	KUNIT_EXPECT_EQ(test, jlm_wrong_branches(base), 0);
	KUNIT_EXPECT_EQ(test, jlm_wrong_branches(user), 0);
	KUNIT_EXPECT_EQ(test, jlm_sites(kf, NULL).wrong, 0);
	jlm_unload(test, "jlm_base_user");
	KUNIT_EXPECT_EQ(test, jlm_sites(kf, NULL).sites, 2);
	static_key_disable(kf);
	static_key_enable(base->key[2]);
	KUNIT_EXPECT_EQ(test, jlm_wrong_branches(base), 0);
	jlm_unload(test, "jlm_base");
	KUNIT_EXPECT_EQ(test, jlm_register_wrong, 0);
}

/* Init text's sites work during init, then no flip ever touches them. */
static void jlm_test_init_sites(struct kunit *test)
{
	unsigned int i, init = 0;
	struct jlm_probe *probe;
	struct module *mod;
	struct jlm_site_count c;

	static_branch_enable(&jlm_core_false);
	probe = jlm_load(test, "jlm_init_sites");
	KUNIT_ASSERT_TRUE(test, probe != NULL);
	mod = jlm_module("jlm_init_sites");
	/* Saw FALSE enabled and TRUE enabled through its init sites. */
	KUNIT_EXPECT_EQ(test, probe->init_branch, 3);
	KUNIT_EXPECT_TRUE(test, mod->jump_init_done);
	KUNIT_EXPECT_TRUE(test, mod->mem[MOD_INIT_TEXT].base == NULL);
	/* Three entries: is_core_false() and two in is_init(). */
	KUNIT_EXPECT_EQ(test, mod->num_jump_entries, 3);
	for (i = 0; i < mod->num_jump_entries; i++)
		init += jump_entry_is_init(&mod->jump_entries[i]);
	KUNIT_EXPECT_EQ(test, init, 2);
	/* Only is_core_false()'s is left to walk. */
	c = jlm_sites(&jlm_core_false.key, mod);
	KUNIT_EXPECT_EQ(test, c.sites, 1);
	KUNIT_EXPECT_EQ(test, c.init, 0);
	KUNIT_EXPECT_EQ(test, jlm_sites(&jlm_core_true.key, mod).sites, 0);
	KUNIT_EXPECT_EQ(
		test,
		jump_label_text_reserved((void *)probe->init_text,
					 (void *)(probe->init_text + 64)),
		0);
	static_branch_disable(&jlm_core_false);
	static_branch_disable(&jlm_core_true);
	jlm_expect_all_right(test);
	static_branch_enable(&jlm_core_true);
	jlm_unload(test, "jlm_init_sites");
}

/*
 * _RO keys: a module's own is linked while its init may change it, then
 * sealed (a change WARNs and is refused); another owner's sealed one gets
 * its module sites set once at load, with no link (linking writes the key).
 */
static void jlm_test_ro_keys(struct kunit *test)
{
	struct jlm_probe *base, *user, *cu;
	struct static_key *ro;
	u64 log;

	base = jlm_load(test, "jlm_base");
	user = jlm_load(test, "jlm_base_user");
	cu = jlm_load(test, "jlm_core_user");
	KUNIT_ASSERT_TRUE(test, base && user && cu);
	ro = base->key[5];
	KUNIT_EXPECT_TRUE(test, static_key_enabled(ro));
	KUNIT_EXPECT_EQ(test, jlm_wrong_branches(base), 0);
	KUNIT_EXPECT_EQ(test, jlm_wrong_branches(user), 0);
	KUNIT_EXPECT_EQ(test, jlm_wrong_branches(cu), 0);
	KUNIT_EXPECT_EQ(test, jlm_sites(ro, NULL).sites, 1);
	KUNIT_EXPECT_FALSE(test, static_key_enabled(&jlm_core_ro));
	KUNIT_EXPECT_FALSE(test, static_key_linked(&jlm_core_ro.key));
	log = printk_log_end();
	static_key_disable(ro);
	KUNIT_EXPECT_TRUE(test, static_key_enabled(ro));
	KUNIT_EXPECT_TRUE(
		test,
		printk_log_contains(
			log,
			"static key jlm_base_ro+0x0/0x10 [jlm_base] changed after init, but it is read-only"));
	KUNIT_EXPECT_EQ(test, jlm_wrong_branches(base), 0);
	jlm_unload(test, "jlm_core_user");
	jlm_unload(test, "jlm_base_user");
	jlm_unload(test, "jlm_base");
}

static void jlm_load_init_fail(struct kunit *test, void *mod)
{
	*(struct module **)mod = load_module("jlm_init_fail");
}

/* A failing init leaves no link, no memory and no module behind. */
static void jlm_test_init_fails(struct kunit *test)
{
	struct module *mod;

	static_branch_enable(&jlm_core_false);
	kunit_expect_no_leak(test, jlm_load_init_fail, &mod, NULL);
	KUNIT_EXPECT_TRUE(test, IS_ERR(mod) && PTR_ERR(mod) == -ENODEV);
	KUNIT_EXPECT_EQ(test, jlm_register_wrong, 0);
	KUNIT_EXPECT_TRUE(test, jlm_module("jlm_init_fail") == NULL);
	KUNIT_EXPECT_FALSE(test, static_key_linked(&jlm_core_false.key));
	KUNIT_EXPECT_FALSE(test, static_key_linked(&jlm_core_true.key));
	static_branch_disable(&jlm_core_false);
	jlm_expect_all_right(test);
}

/* jump_label_text_reserved() knows module sites, and only while loaded. */
static void jlm_test_text_reserved(struct kunit *test)
{
	struct jlm_probe *probe = jlm_load(test, "jlm_core_user");
	void *fn;

	KUNIT_ASSERT_TRUE(test, probe != NULL);
	fn = (void *)probe->branch[0];
	KUNIT_EXPECT_EQ(test, jump_label_text_reserved(fn, fn + 32), 1);
	KUNIT_EXPECT_TRUE(test, is_module_text_address((unsigned long)fn));
	jlm_unload(test, "jlm_core_user");
	KUNIT_EXPECT_EQ(test, jump_label_text_reserved(fn, fn + 32), 0);
}

static unsigned int jlm_cycles = 1000;
core_param_named("jump_label_module_test.cycles", jlm_cycles, uint);

/* One load/flip/unload cycle of the three modules. */
static void jlm_cycle(struct kunit *test)
{
	KUNIT_ASSERT_TRUE(test, jlm_load(test, "jlm_core_user"));
	KUNIT_ASSERT_TRUE(test, jlm_load(test, "jlm_base"));
	static_branch_enable(&jlm_core_false);
	KUNIT_ASSERT_TRUE(test, jlm_load(test, "jlm_base_user"));
	static_branch_disable(&jlm_core_true);
	jlm_unload(test, "jlm_base_user");
	static_branch_disable(&jlm_core_false);
	jlm_unload(test, "jlm_base");
	static_branch_enable(&jlm_core_true);
	jlm_unload(test, "jlm_core_user");
}

/*
 * Many load/flip/unload cycles leave memory and links exactly as before.
 * The first cycle runs before the count: it may fill kmalloc's caches and
 * split direct-map pages for good, which kunit_mem counts but a later
 * cycle would not repeat.
 */
static void jlm_test_cycles(struct kunit *test)
{
	struct kunit_mem before, after;
	unsigned int i;

	jlm_cycle(test);
	/* What earlier cases left to RCU is freed before the count. */
	rcu_barrier();
	kunit_mem_snapshot(&before);
	for (i = 1; i < jlm_cycles && !test->status; i++)
		jlm_cycle(test);
	rcu_barrier();
	kunit_mem_snapshot(&after);
	KUNIT_EXPECT_EQ(test, i, jlm_cycles);
	KUNIT_EXPECT_EQ(test, after.frames, before.frames);
	KUNIT_EXPECT_EQ(test, after.objects, before.objects);
	KUNIT_EXPECT_EQ(test, after.bytes, before.bytes);
	KUNIT_EXPECT_FALSE(test, static_key_linked(&jlm_core_false.key));
	KUNIT_EXPECT_EQ(test, jlm_register_wrong, 0);
	jlm_expect_all_right(test);
}

/*
 * Flips on every other CPU while this one loads and unloads: each thread
 * takes and drops a reference to the FALSE key (balanced, so the count
 * never goes below 0), and the first one also disables and enables the
 * TRUE key (alone: two threads doing it would be misuse).
 */
struct jlm_flipper {
	unsigned long flips;
	bool flip_true;
};

static int jlm_flip_fn(void *data)
{
	struct jlm_flipper *f = data;

	while (!kthread_should_stop()) {
		static_branch_inc(&jlm_core_false);
		static_branch_dec(&jlm_core_false);
		if (f->flip_true) {
			static_branch_disable(&jlm_core_true);
			static_branch_enable(&jlm_core_true);
		}
		f->flips++;
		schedule();
	}
	return 0;
}

static unsigned int jlm_race_cycles = 50;
core_param_named("jump_label_module_test.race_cycles", jlm_race_cycles, uint);

static void jlm_test_race(struct kunit *test)
{
	struct task_struct *t[NR_CPUS] = {};
	struct jlm_flipper f[NR_CPUS] = {};
	unsigned int cpu, i, started = 0;
	unsigned long flips = 0;

	for (cpu = 1; cpu < NR_CPUS; cpu++) {
		if (!cpu_online(cpu))
			continue;
		f[cpu].flip_true = !started;
		t[cpu] = kthread_run_on_cpu(jlm_flip_fn, &f[cpu], cpu,
					    "jlm_flip/%u");
		KUNIT_ASSERT_FALSE(test, IS_ERR(t[cpu]));
		started++;
	}
	for (i = 0; i < jlm_race_cycles && !test->status; i++) {
		KUNIT_EXPECT_TRUE(test, jlm_load(test, "jlm_core_user"));
		KUNIT_EXPECT_TRUE(test, jlm_load(test, "jlm_base"));
		KUNIT_EXPECT_TRUE(test, jlm_load(test, "jlm_base_user"));
		jlm_unload(test, "jlm_base_user");
		jlm_unload(test, "jlm_base");
		jlm_unload(test, "jlm_core_user");
	}
	for (cpu = 1; cpu < NR_CPUS; cpu++) {
		if (t[cpu]) {
			kthread_stop(t[cpu]);
			flips += f[cpu].flips;
		}
	}
	kunit_info(test, "%u cycles against %lu flips on %u CPUs", i, flips,
		   started);
	/*
	 * jlm_register()'s checks raced with the flips (a branch and its key
	 * are not read atomically): the quiet state is what must be right.
	 */
	KUNIT_EXPECT_EQ(test, static_key_count(&jlm_core_false.key), 0);
	KUNIT_EXPECT_EQ(test, static_key_count(&jlm_core_true.key), 1);
	jlm_register_wrong = 0;
	jlm_cycle(test);
	KUNIT_EXPECT_EQ(test, jlm_register_wrong, 0);
	jlm_expect_all_right(test);
}

/*
 * A module with K keys of its own (jlm_keysK: a site on each, one on
 * jlm_core_false, a static call site per key): its load writes every
 * site that must change -- K + 1 jump-label sites and K call sites -- in
 * one pass, while its text is not executable yet: no batch, no sync
 * round, whatever K (it was two batches, six rounds). Its unload writes
 * nothing. A flip of one of its keys afterwards is a batch as any other.
 * With jlm_core_false enabled, its site is left as the JMP it came with.
 */
static void jlm_expect_load_k_keys(struct kunit *test, unsigned int k)
{
	unsigned int calls = IS_ENABLED(CONFIG_STATIC_CALL) ? k : 0;
	bool core = static_key_enabled(&jlm_core_false);
	struct text_poke_stats before = text_poke_stats;
	unsigned int i, wrong = 0;
	struct static_key *own;
	struct module *mod;
	char name[16];

	snprintf(name, sizeof(name), "jlm_keys%u", k);
	mod = load_module(name);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(mod), "load_module(%s): %ld", name,
			       IS_ERR(mod) ? PTR_ERR(mod) : 0L);
	KUNIT_EXPECT_EQ(test, mod->num_jump_entries, k + 1);
	KUNIT_EXPECT_EQ(test, text_poke_stats.sync_rounds - before.sync_rounds,
			0);
	KUNIT_EXPECT_EQ(test, text_poke_stats.batches - before.batches, 0);
	KUNIT_EXPECT_EQ(test, text_poke_stats.sites - before.sites,
			k + !core + calls);
	KUNIT_EXPECT_EQ(test, text_poke_stats.nx_sites - before.nx_sites,
			k + !core + calls);
	for (i = 0; i < mod->num_jump_entries; i++)
		wrong += jlm_sites(jump_entry_key(&mod->jump_entries[i]), mod)
				 .wrong;
	KUNIT_EXPECT_EQ(test, wrong, 0);
	KUNIT_EXPECT_EQ(test, jlm_sites(&jlm_core_false.key, mod).sites, 1);

	/* Its text is executable now: a flip of its own key is a batch. */
	own = jump_entry_key(&mod->jump_entries[0]);
	if (own == &jlm_core_false.key)
		own = jump_entry_key(&mod->jump_entries[1]);
	before = text_poke_stats;
	static_key_enable(own);
	KUNIT_EXPECT_EQ(test, text_poke_stats.batches - before.batches, 1);
	KUNIT_EXPECT_EQ(test, text_poke_stats.sync_rounds - before.sync_rounds,
			3);
	KUNIT_EXPECT_EQ(test, text_poke_stats.sites - before.sites, 1);
	KUNIT_EXPECT_EQ(test, text_poke_stats.nx_sites - before.nx_sites, 0);
	KUNIT_EXPECT_EQ(test, jlm_sites(own, mod).wrong, 0);

	before = text_poke_stats;
	jlm_unload(test, name);
	KUNIT_EXPECT_EQ(test, text_poke_stats.sync_rounds - before.sync_rounds,
			0);
	KUNIT_EXPECT_EQ(test, text_poke_stats.sites - before.sites, 0);
	KUNIT_EXPECT_EQ(test, jlm_sites(&jlm_core_false.key, NULL).in_modules,
			0);
}

static void jlm_test_load_k_keys(struct kunit *test)
{
	struct text_poke_stats before;

	jlm_expect_load_k_keys(test, 1);
	jlm_expect_load_k_keys(test, 16);
	jlm_expect_load_k_keys(test, 64);
	static_branch_enable(&jlm_core_false);
	jlm_expect_load_k_keys(test, 16);
	static_branch_disable(&jlm_core_false);
	/* Init-text sites are dropped after init without a round either. */
	before = text_poke_stats;
	KUNIT_ASSERT_TRUE(test, jlm_load(test, "jlm_init_sites"));
	KUNIT_EXPECT_EQ(test, text_poke_stats.sync_rounds - before.sync_rounds,
			0);
	KUNIT_EXPECT_EQ(test, text_poke_stats.nx_sites - before.nx_sites,
			text_poke_stats.sites - before.sites);
	jlm_unload(test, "jlm_init_sites");
	jlm_expect_all_right(test);
}

/*
 * jlm_test_load_nomem's hook: memory runs out at one step of a load, after
 * jlm_fail_skip allocations of that step have succeeded.
 */
static unsigned int jlm_fail_step, jlm_fail_skip;

static void jlm_fail_hook(unsigned int step)
{
	if (step == jlm_fail_step)
		kmalloc_fail_after(jlm_fail_skip, 1);
}

/*
 * Loads jlm_keys16 with an allocation failing at step, the one after skip
 * others: -ENOMEM (a few tries: another CPU may take the failure),
 * nothing written, nothing linked, the module gone.
 */
static void jlm_expect_load_nomem(struct kunit *test, unsigned int step,
				  unsigned int skip)
{
	struct text_poke_stats before;
	struct module *mod = NULL;
	unsigned int tries;

	for (tries = 0; tries < 5; tries++) {
		before = text_poke_stats;
		jlm_fail_step = step;
		jlm_fail_skip = skip;
		module_text_sites_test_hook = jlm_fail_hook;
		mod = load_module("jlm_keys16");
		module_text_sites_test_hook = NULL;
		kmalloc_fail_next(0);
		if (IS_ERR(mod))
			break;
		jlm_unload(test, "jlm_keys16");
	}
	KUNIT_ASSERT_TRUE_MSG(test, IS_ERR(mod),
			      "step %u, skip %u: loaded %u times", step, skip,
			      tries);
	KUNIT_EXPECT_EQ(test, PTR_ERR(mod), (long)-ENOMEM);
	KUNIT_EXPECT_FALSE(test, jlm_module("jlm_keys16"));
	KUNIT_EXPECT_EQ(test, text_poke_stats.sites - before.sites, 0);
	KUNIT_EXPECT_FALSE(test, static_key_linked(&jlm_core_false.key));
}

/*
 * Out of memory while a load links its static calls, or its keys (its
 * calls linked by then): refused, every key, call and site as before,
 * kmalloc as before; the next load of it works. The keys' step fails at
 * its first allocation (the module's record), and at its second: the
 * link of jlm_core_false, the first key, which has kernel sites and is
 * still plain (the engine's host fuzzer found its unwind walking the
 * plain key's entries as links).
 */
static void jlm_test_load_nomem(struct kunit *test)
{
	struct kunit_mem before, after;

	jlm_expect_load_k_keys(test, 16); /* fills kmalloc's caches */
	rcu_barrier();
	kunit_mem_snapshot(&before);
	if (IS_ENABLED(CONFIG_STATIC_CALL))
		jlm_expect_load_nomem(test, 0, 0);
	jlm_expect_load_nomem(test, 1, 0);
	jlm_expect_load_nomem(test, 1, 1);
	rcu_barrier();
	kunit_mem_snapshot(&after);
	KUNIT_EXPECT_EQ(test, after.objects, before.objects);
	KUNIT_EXPECT_EQ(test, after.bytes, before.bytes);
	jlm_expect_load_k_keys(test, 16);
	jlm_expect_all_right(test);
}

static struct kunit_case jlm_cases[] = { KUNIT_CASE(jlm_test_core_keys),
					 KUNIT_CASE(jlm_test_one_batch),
					 KUNIT_CASE(jlm_test_load_k_keys),
					 KUNIT_CASE(jlm_test_load_nomem),
					 KUNIT_CASE(jlm_test_load_enabled),
					 KUNIT_CASE(jlm_test_module_keys),
					 KUNIT_CASE(jlm_test_init_sites),
					 KUNIT_CASE(jlm_test_ro_keys),
					 KUNIT_CASE(jlm_test_init_fails),
					 KUNIT_CASE(jlm_test_text_reserved),
					 KUNIT_CASE(jlm_test_cycles),
					 KUNIT_CASE(jlm_test_race),
					 {} };

static struct kunit_suite jlm_suite = {
	.name = "jump_label_modules",
	.init = jlm_init,
	.test_cases = jlm_cases,
};
kunit_test_suite(jlm_suite);
