// SPDX-License-Identifier: GPL-2.0
/*
 * Suite "module_percpu": modules' per-CPU variables (kernel/module/
 * percpu.c) through the modtest_percpu* test modules, which use Linux's
 * API only. Every possible CPU's copy starts with the section's contents;
 * this_cpu_*() from every online CPU touch that CPU's copy and per_cpu()
 * sums them; exports between modules name the same variable; unload,
 * reload and a failed init give the chunk back zeroed; a section larger
 * than the reserve is refused, leaving everything as it was.
 */
#include <linux/kernel.h>
#include <linux/cpumask.h>
#include <linux/elf.h>
#include <linux/err.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <fixtures/mem_snapshot.h>
#include <fixtures/modtest.h>
#include <kunit/test.h>

#define MPC_ROUNDS 10

/* What a module registered at init: copied, its memory may go. */
struct mpc_seen {
	char name[32];
	struct modtest_percpu_ops ops;
	int seed_at_init; /* this CPU's *ops.seed when it registered */
	bool live;
};

static struct mpc_seen mpc_seen[3];

static struct mpc_seen *mpc_slot(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(mpc_seen); i++)
		if (!strcmp(mpc_seen[i].name, name))
			return &mpc_seen[i];
	for (i = 0; i < ARRAY_SIZE(mpc_seen); i++)
		if (!mpc_seen[i].name[0])
			return &mpc_seen[i];
	return NULL;
}

void modtest_percpu_register(const struct modtest_percpu_ops *ops)
{
	struct mpc_seen *s = mpc_slot(ops->name);

	if (WARN_ON_ONCE(!s))
		return;
	strscpy(s->name, ops->name, sizeof(s->name));
	s->ops = *ops;
	s->ops.name = s->name;
	preempt_disable();
	s->seed_at_init = ops->seed ? *this_cpu_ptr(ops->seed) : 0;
	preempt_enable();
	s->live = true;
}
EXPORT_SYMBOL(modtest_percpu_register);

void modtest_percpu_unregister(const struct modtest_percpu_ops *ops)
{
	struct mpc_seen *s = mpc_slot(ops->name);

	if (s)
		s->live = false;
}
EXPORT_SYMBOL(modtest_percpu_unregister);

static bool mpc_loaded(const char *name)
{
	bool loaded;

	mutex_lock(&module_mutex);
	loaded = find_module(name);
	mutex_unlock(&module_mutex);
	return loaded;
}

static int mpc_test_init(struct kunit *test)
{
	memset(mpc_seen, 0, sizeof(mpc_seen));
	return 0;
}

static const struct modtest_percpu_ops *mpc_load(struct kunit *test,
						 const char *name)
{
	struct module *mod = load_module(name);
	struct mpc_seen *s;

	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(mod), "load_module(%s): %ld", name,
			       PTR_ERR(mod));
	s = mpc_slot(name);
	KUNIT_ASSERT_TRUE_MSG(test, s && s->live, "%s did not register", name);
	return &s->ops;
}

/* [p, p + len) is inside the reserve of the template, and so on each CPU. */
static bool in_reserve(const void *p, size_t len)
{
	unsigned long a = (unsigned long)p;

	return a >= (unsigned long)__per_cpu_module_start &&
	       a + len <= (unsigned long)__per_cpu_end;
}

/* Every possible CPU's copy holds what the module's section said. */
static void expect_initial(struct kunit *test,
			   const struct modtest_percpu_ops *o,
			   unsigned long word0, int seed)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		KUNIT_EXPECT_EQ_MSG(test, per_cpu(*o->hits, cpu), 0, "CPU%u",
				    cpu);
		KUNIT_EXPECT_EQ_MSG(test, per_cpu(*o->seed, cpu), seed, "CPU%u",
				    cpu);
		KUNIT_EXPECT_EQ_MSG(test, per_cpu_ptr(o->block, cpu)->words[0],
				    word0, "CPU%u", cpu);
		KUNIT_EXPECT_PTR_EQ(test, per_cpu(*o->ptr, cpu), o->target);
	}
}

/* Where a module's variables are: template addresses in the reserve. */
static void expect_placed(struct kunit *test,
			  const struct modtest_percpu_ops *o)
{
	unsigned int cpu;

	KUNIT_EXPECT_TRUE(test, in_reserve(o->hits, sizeof(*o->hits)));
	KUNIT_EXPECT_TRUE(test, in_reserve(o->block, sizeof(*o->block)));
	KUNIT_EXPECT_TRUE(test, in_reserve(o->ptr, sizeof(*o->ptr)));
	KUNIT_EXPECT_EQ(test, (unsigned long)o->block % 64, 0);
	mutex_lock(&module_mutex);
	KUNIT_EXPECT_TRUE(test,
			  is_module_percpu_address((unsigned long)o->ptr));
	mutex_unlock(&module_mutex);
	for_each_possible_cpu(cpu)
		KUNIT_EXPECT_EQ_MSG(
			test, (unsigned long)per_cpu_ptr(o->block, cpu) % 64, 0,
			"CPU%u", cpu);
}

/* MPC_ROUNDS bumps on every online CPU, interrupts off on each. */
static void bump_all(const struct modtest_percpu_ops *o)
{
	unsigned int i;

	for (i = 0; i < MPC_ROUNDS; i++)
		on_each_cpu(o->bump, NULL, 1);
}

/* Loaded: placed, initialised on every CPU, bumped CPU by CPU, summed. */
static void mpc_test_every_cpu(struct kunit *test)
{
	size_t free = module_percpu_free_bytes();
	const struct modtest_percpu_ops *o = mpc_load(test, "modtest_percpu");
	unsigned long sum = 0, mine;
	unsigned int cpu;

	KUNIT_EXPECT_LT(test, module_percpu_free_bytes(), free);
	KUNIT_EXPECT_EQ(test, mpc_slot("modtest_percpu")->seed_at_init, 1000);
	expect_placed(test, o);
	expect_initial(test, o, 1, 1000);
	bump_all(o);
	for_each_possible_cpu(cpu) {
		bool on = cpu_online(cpu);

		KUNIT_EXPECT_EQ_MSG(test, per_cpu(*o->hits, cpu),
				    on ? MPC_ROUNDS : 0, "CPU%u", cpu);
		KUNIT_EXPECT_EQ_MSG(test, per_cpu(*o->seed, cpu),
				    1000 + (on ? MPC_ROUNDS : 0), "CPU%u", cpu);
		KUNIT_EXPECT_EQ_MSG(test, per_cpu_ptr(o->block, cpu)->words[1],
				    2 + (on ? MPC_ROUNDS : 0), "CPU%u", cpu);
		sum += per_cpu(*o->hits, cpu) +
		       per_cpu_ptr(o->block, cpu)->words[0];
	}
	KUNIT_EXPECT_EQ(test, o->sum(), sum);
	KUNIT_EXPECT_EQ(test, sum,
			(MPC_ROUNDS * 2) * num_online_cpus() +
				num_possible_cpus());
	preempt_disable();
	mine = this_cpu_read(*o->hits);
	KUNIT_EXPECT_EQ(test, o->this_hits(), mine);
	KUNIT_EXPECT_EQ(test, mine, *this_cpu_ptr(o->hits));
	preempt_enable();
	KUNIT_EXPECT_EQ(test, delete_module("modtest_percpu"), 0);
	KUNIT_EXPECT_EQ(test, module_percpu_free_bytes(), free);
}

/* Unload zeroes the chunk; a reload gets the same one, initialised anew. */
static void mpc_test_reload(struct kunit *test)
{
	size_t free = module_percpu_free_bytes();
	const struct modtest_percpu_ops *o = mpc_load(test, "modtest_percpu");
	unsigned long *hits = o->hits;
	int *seed = o->seed;
	unsigned int cpu, round;

	for (round = 0; round < 3; round++) {
		bump_all(o);
		KUNIT_EXPECT_EQ(test, delete_module("modtest_percpu"), 0);
		KUNIT_EXPECT_EQ(test, module_percpu_free_bytes(), free);
		for_each_possible_cpu(cpu) {
			KUNIT_EXPECT_EQ_MSG(test, per_cpu(*hits, cpu), 0,
					    "CPU%u", cpu);
			KUNIT_EXPECT_EQ_MSG(test, per_cpu(*seed, cpu), 0,
					    "CPU%u", cpu);
		}
		o = mpc_load(test, "modtest_percpu");
		KUNIT_EXPECT_PTR_EQ(test, o->hits, hits);
		expect_initial(test, o, 1, 1000);
	}
	KUNIT_EXPECT_EQ(test, delete_module("modtest_percpu"), 0);
	KUNIT_EXPECT_EQ(test, module_percpu_free_bytes(), free);
}

/* Two modules at once; the second bumps the first's exported counter. */
static void mpc_test_two_modules(struct kunit *test)
{
	size_t free = module_percpu_free_bytes();
	const struct modtest_percpu_ops *a = mpc_load(test, "modtest_percpu");
	size_t free_a = module_percpu_free_bytes();
	const struct modtest_percpu_ops *b =
		mpc_load(test, "modtest_percpu_user");
	unsigned long a0 = (unsigned long)a->block,
		      b0 = (unsigned long)b->block;
	unsigned int cpu;

	KUNIT_EXPECT_LT(test, module_percpu_free_bytes(), free_a);
	KUNIT_EXPECT_PTR_EQ(test, b->hits, a->hits);
	KUNIT_EXPECT_PTR_EQ(test, b->seed, a->seed);
	KUNIT_EXPECT_TRUE(test, a0 + sizeof(*a->block) <= b0 ||
					b0 + sizeof(*b->block) <= a0);
	expect_placed(test, b);
	expect_initial(test, b, 10, 1000);
	bump_all(b);
	for_each_possible_cpu(cpu) {
		bool on = cpu_online(cpu);

		KUNIT_EXPECT_EQ(test, per_cpu(*a->hits, cpu),
				on ? MPC_ROUNDS : 0);
		KUNIT_EXPECT_EQ(test, per_cpu_ptr(b->block, cpu)->words[0],
				10 + (on ? MPC_ROUNDS : 0));
		KUNIT_EXPECT_EQ(test, per_cpu_ptr(a->block, cpu)->words[0], 1);
	}
	KUNIT_EXPECT_EQ(test, b->sum(),
			a->sum() + 9 * num_possible_cpus() +
				MPC_ROUNDS * num_online_cpus());
	KUNIT_EXPECT_EQ(test, delete_module("modtest_percpu"), -EBUSY);
	KUNIT_EXPECT_EQ(test, delete_module("modtest_percpu_user"), 0);
	KUNIT_EXPECT_EQ(test, module_percpu_free_bytes(), free_a);
	KUNIT_EXPECT_EQ(test, delete_module("modtest_percpu"), 0);
	KUNIT_EXPECT_EQ(test, module_percpu_free_bytes(), free);
}

/* The lower of the block's and the counter's addresses: its chunk's start. */
static unsigned long chunk_start(const struct modtest_percpu_ops *o)
{
	return min((unsigned long)o->block, (unsigned long)o->seed);
}

/*
 * First fit over a fragmented reserve: the hole an unload leaves is used
 * again, and a section larger than every hole is refused although the
 * free bytes add up to more; at the end all of it is free again.
 */
static void mpc_test_first_fit(struct kunit *test)
{
	size_t size = module_percpu_reserve_size(), half = size / 2;
	unsigned long start = (unsigned long)__per_cpu_module_start;
	const struct modtest_percpu_ops *h, *a, *u;
	char msg[128];
	u64 log;

	KUNIT_ASSERT_EQ(test, module_percpu_free_bytes(), size);
	h = mpc_load(test, "modtest_percpu_half");
	KUNIT_EXPECT_EQ(test, chunk_start(h), start);
	a = mpc_load(test, "modtest_percpu");
	KUNIT_EXPECT_GE(test, (unsigned long)a->hits, start + half);
	KUNIT_EXPECT_EQ(test, delete_module("modtest_percpu_half"), 0);
	u = mpc_load(test, "modtest_percpu_user");
	KUNIT_EXPECT_EQ(test, (unsigned long)u->block % 64, 0);
	KUNIT_EXPECT_LT(test, (unsigned long)u->block, start + half);
	log = printk_log_end();
	KUNIT_EXPECT_EQ(test, PTR_ERR(load_module("modtest_percpu_half")),
			-ENOMEM);
	KUNIT_EXPECT_GT(test, module_percpu_free_bytes(), half);
	snprintf(
		msg, sizeof(msg),
		" does not fit the per-CPU reserve for modules (%zu of %zu bytes free)\n",
		module_percpu_free_bytes(), size);
	KUNIT_EXPECT_TRUE_MSG(test, printk_log_contains(log, msg),
			      "no \"%s\" in the log", msg);
	KUNIT_EXPECT_EQ(test, delete_module("modtest_percpu_user"), 0);
	KUNIT_EXPECT_EQ(test, delete_module("modtest_percpu"), 0);
	KUNIT_EXPECT_EQ(test, module_percpu_free_bytes(), size);
	h = mpc_load(test, "modtest_percpu_half");
	KUNIT_EXPECT_EQ(test, chunk_start(h), start);
	KUNIT_EXPECT_EQ(test, delete_module("modtest_percpu_half"), 0);
	KUNIT_EXPECT_EQ(test, module_percpu_free_bytes(), size);
}

/*
 * A copy of modtest_percpu_half whose .data..percpu is NOBITS of size
 * bytes (it has no relocations), allocated with the case.
 */
static struct module_blob *half_nobits(struct kunit *test, u64 size)
{
	const struct module_blob *orig =
		module_blob_find("modtest_percpu_half");
	struct module_blob *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	Elf64_Ehdr *h;
	Elf64_Shdr *sh;
	const char *names;
	u8 *img;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, orig);
	img = kunit_kmalloc(test, orig->size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, img);
	KUNIT_ASSERT_NOT_NULL(test, b);
	memcpy(img, orig->data, orig->size);
	h = (Elf64_Ehdr *)img;
	sh = (Elf64_Shdr *)(img + h->e_shoff);
	names = (const char *)img + sh[h->e_shstrndx].sh_offset;
	for (i = 1; i < h->e_shnum; i++)
		if (!strcmp(names + sh[i].sh_name, ".data..percpu"))
			break;
	KUNIT_ASSERT_LT(test, i, h->e_shnum);
	sh[i].sh_type = SHT_NOBITS;
	sh[i].sh_size = size;
	*b = (struct module_blob){ orig->name, img, orig->size };
	return b;
}

/* NOBITS: every CPU's copy starts zeroed, the counter's 3 included. */
static void mpc_test_nobits(struct kunit *test)
{
	size_t size = module_percpu_reserve_size();
	struct module_blob *b = half_nobits(test, size / 2 + 64);
	struct module *mod = load_module_blob(b);
	struct mpc_seen *s = mpc_slot("modtest_percpu_half");
	unsigned int cpu, n = 0;

	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(mod), "%ld", PTR_ERR(mod));
	KUNIT_ASSERT_TRUE(test, s && s->live);
	KUNIT_EXPECT_EQ(test, s->seed_at_init, 1);
	KUNIT_EXPECT_EQ(test, module_percpu_free_bytes(), size - size / 2 - 64);
	for_each_possible_cpu(cpu)
		n += per_cpu(*s->ops.seed, cpu);
	KUNIT_EXPECT_EQ(test, n, 1);
	KUNIT_EXPECT_EQ(test, delete_module("modtest_percpu_half"), 0);
	KUNIT_EXPECT_EQ(test, module_percpu_free_bytes(), size);
}

static void refuse_big(struct kunit *test, void *arg)
{
	u64 log = printk_log_end();
	struct module *mod = load_module_blob(arg);
	char msg[2][128];

	KUNIT_EXPECT_EQ(test, PTR_ERR(mod), -ENOMEM);
	if (!IS_ERR(mod))
		delete_module("modtest_percpu_half");
	/* Then "(aligned to N)": the compiler's choice for a large array. */
	snprintf(
		msg[0], sizeof(msg[0]),
		"module modtest_percpu_half: per-CPU section .data..percpu of %zu bytes ",
		module_percpu_reserve_size() + 64);
	snprintf(
		msg[1], sizeof(msg[1]),
		") does not fit the per-CPU reserve for modules (%zu of %zu bytes free)\n",
		module_percpu_free_bytes(), module_percpu_reserve_size());
	KUNIT_EXPECT_TRUE_MSG(test, printk_log_contains(log, msg[0]),
			      "no \"%s\" in the log", msg[0]);
	KUNIT_EXPECT_TRUE_MSG(test, printk_log_contains(log, msg[1]),
			      "no \"%s\" in the log", msg[1]);
}

/* Larger than the reserve: refused with its line, nothing left behind. */
static void mpc_test_too_big(struct kunit *test)
{
	size_t free = module_percpu_free_bytes();
	struct module_blob *b =
		half_nobits(test, module_percpu_reserve_size() + 64);

	KUNIT_EXPECT_EQ(test, module_percpu_reserve_size(),
			CONFIG_MODULE_PERCPU_RESERVE);
	kunit_expect_no_leak(test, refuse_big, b, NULL);
	KUNIT_EXPECT_EQ(test, module_percpu_free_bytes(), free);
	KUNIT_EXPECT_FALSE(test, mpc_loaded("modtest_percpu_half"));
}

/* A failed init gives its chunk back, zeroed on every CPU. */
static void mpc_test_init_fails(struct kunit *test)
{
	size_t free = module_percpu_free_bytes();
	struct mpc_seen *s;
	unsigned int cpu;

	KUNIT_EXPECT_EQ(test,
			PTR_ERR(load_module("modtest_percpu_half", "fail=1")),
			-ENODEV);
	s = mpc_slot("modtest_percpu_half");
	KUNIT_ASSERT_TRUE(test, s && s->live);
	KUNIT_EXPECT_EQ(test, s->seed_at_init, 4);
	KUNIT_EXPECT_TRUE(test,
			  in_reserve(s->ops.block, sizeof(*s->ops.block)));
	KUNIT_EXPECT_EQ(test, module_percpu_free_bytes(), free);
	for_each_possible_cpu(cpu) {
		KUNIT_EXPECT_EQ_MSG(test, per_cpu(*s->ops.seed, cpu), 0,
				    "CPU%u", cpu);
		KUNIT_EXPECT_EQ_MSG(test,
				    per_cpu_ptr(s->ops.block, cpu)->words[2], 0,
				    "CPU%u", cpu);
	}
	KUNIT_EXPECT_FALSE(test, mpc_loaded("modtest_percpu_half"));
}

static struct kunit_case mpc_test_cases[] = {
	KUNIT_CASE(mpc_test_every_cpu),	  KUNIT_CASE(mpc_test_reload),
	KUNIT_CASE(mpc_test_two_modules), KUNIT_CASE(mpc_test_first_fit),
	KUNIT_CASE(mpc_test_nobits),	  KUNIT_CASE(mpc_test_too_big),
	KUNIT_CASE(mpc_test_init_fails),  {}
};

static struct kunit_suite mpc_test_suite = {
	.name = "module_percpu",
	.init = mpc_test_init,
	.test_cases = mpc_test_cases,
};
kunit_test_suite(mpc_test_suite);
