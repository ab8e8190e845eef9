// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the module loader, with the test modules of tests/modules/loader/
 * (found by module_blob_find()). Suite "module": loads and unloads, every
 * region's protection, exports between modules, references, a failing
 * init, %pS. Suite "module_refusal": broken modules and broken copies of
 * modtest_basic, each refused with its errno and its one-line message and
 * leaving frames, kmalloc and the module area as they were.
 *
 * Leak checks run the operation once before counting: the first run may
 * fill kmalloc's free lists from fresh frames, which stay there; the
 * second must then end with every count where it started.
 */
#include <linux/kernel.h>
#include <linux/elf.h>
#include <linux/err.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/module_blob.h>
#include <linux/moduleloader.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/shell.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/text-patching.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <asm/module.h>
#include <asm/pgtable.h>
#include <generated/vermagic.h>
#include <kunit/test.h>
#include <fixtures/modtest.h>
#include <fixtures/shell_capture.h>

/* What the modules reported, reset before every case. */
static struct {
	struct modtest_report report;
	enum module_state state_at_init;
	pteval_t ro_after_init_pte, init_text_pte;
	int value[2];
	unsigned int exits, basic_exits, user_exits, initfail_exits;
	int get_in_exit; /* try_module_get() during modtest_basic's exit */
} seen;

void modtest_report(const struct modtest_report *r)
{
	struct module *mod = r->this_module;
	pteval_t *e;
	bool large;

	seen.report = *r;
	seen.state_at_init = mod->state;
	e = lookup_pte((unsigned long)r->ro_after_init, &large);
	seen.ro_after_init_pte = e ? *e : 0;
	e = lookup_pte((unsigned long)r->init_text, &large);
	seen.init_text_pte = e ? *e : 0;
}
EXPORT_SYMBOL(modtest_report);

void modtest_value(const char *who, int value)
{
	seen.value[!strcmp(who, "modtest_user")] = value;
}
EXPORT_SYMBOL(modtest_value);

void modtest_exit(const char *who)
{
	seen.exits++;
	if (!strcmp(who, "modtest_basic")) {
		seen.basic_exits++;
		seen.get_in_exit = try_module_get(seen.report.this_module);
	} else if (!strcmp(who, "modtest_user")) {
		seen.user_exits++;
	} else {
		seen.initfail_exits++;
	}
}
EXPORT_SYMBOL(modtest_exit);

/* modtest_leak's side of the module_unload suite. */
int modtest_leak_release;
EXPORT_SYMBOL(modtest_leak_release);
static struct {
	const char *done;
	void *probe, *data;
} leak;

void modtest_leak_done(const char *what)
{
	WRITE_ONCE(leak.done, what);
}
EXPORT_SYMBOL(modtest_leak_done);

void modtest_leak_report(void *probe, void *data)
{
	leak.probe = probe;
	leak.data = data;
}
EXPORT_SYMBOL(modtest_leak_report);

int modtest_request(const char *name)
{
	return request_module(name);
}
EXPORT_SYMBOL(modtest_request);

int modtest_gpl_only(int x)
{
	return x + 1;
}
EXPORT_SYMBOL_GPL(modtest_gpl_only);

int modtest_kernel_export(int x)
{
	return x;
}
EXPORT_SYMBOL(modtest_kernel_export);

struct mem_counts {
	unsigned long frames, objects, bytes, area;
};

static void mem_counts(struct mem_counts *c)
{
	task_reap_dead();
	c->frames = nr_free_frames();
	kmalloc_usage(&c->objects, &c->bytes);
	c->area = module_area_pages_used();
}

/*
 * Runs op (after a first run that may fill kmalloc's free lists) until a
 * run leaves every count as it found it, 3 times at most: another CPU may
 * allocate or free meanwhile, but a leak shows in every run.
 */
static void expect_no_leak(struct kunit *test,
			   void (*op)(struct kunit *test, const void *arg),
			   const void *arg)
{
	struct mem_counts before, after;
	int tries;

	op(test, arg);
	for (tries = 0; tries < 3; tries++) {
		mem_counts(&before);
		op(test, arg);
		mem_counts(&after);
		if (!memcmp(&before, &after, sizeof(before)))
			return;
	}
	KUNIT_EXPECT_EQ(test, after.frames, before.frames);
	KUNIT_EXPECT_EQ(test, after.objects, before.objects);
	KUNIT_EXPECT_EQ(test, after.bytes, before.bytes);
	KUNIT_EXPECT_EQ(test, after.area, before.area);
}

static int module_test_init(struct kunit *test)
{
	memset(&seen, 0, sizeof(seen));
	seen.get_in_exit = -1;
	return 0;
}

static struct module *load_ok(struct kunit *test, const char *name)
{
	struct module *mod = load_module(name);

	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(mod), "load_module(%s): %ld", name,
			       PTR_ERR(mod));
	return mod;
}

static bool is_loaded(const char *name)
{
	bool loaded;

	mutex_lock(&module_mutex);
	loaded = find_module(name);
	mutex_unlock(&module_mutex);
	return loaded;
}

static pteval_t pte_of(const void *p)
{
	bool large;
	pteval_t *e = lookup_pte((unsigned long)p, &large);

	return e && !large ? *e : 0;
}

/* The entry of p's frame in the direct map (its alias), 4 KiB or 2 MiB. */
static pteval_t alias_pte_of(const void *p)
{
	bool large;
	pteval_t *e = lookup_pte((unsigned long)p, &large);

	if (!e || large)
		return 0;
	e = lookup_pte((unsigned long)__va(*e & PTE_PFN_MASK), &large);
	return e ? *e : 0;
}

#define PROT_BITS (_PAGE_PRESENT | _PAGE_RW | _PAGE_NX)

static void module_test_load_unload(struct kunit *test)
{
	struct module *mod = load_ok(test, "modtest_basic");
	const struct modtest_report *r = &seen.report;

	KUNIT_EXPECT_PTR_EQ(test, r->this_module, mod);
	KUNIT_EXPECT_STREQ(test, mod->name, "modtest_basic");
	KUNIT_EXPECT_EQ(test, seen.state_at_init, MODULE_STATE_COMING);
	KUNIT_EXPECT_EQ(test, mod->state, MODULE_STATE_LIVE);
	KUNIT_EXPECT_TRUE(test, mod->gpl_compatible);
	/* init ran: it wrote ro_after_init from its init data. */
	KUNIT_EXPECT_EQ(test, *r->ro_after_init, 52);
	KUNIT_EXPECT_EQ(test, *r->data, 42);
	KUNIT_EXPECT_EQ(test, *r->bss, 0);
	KUNIT_EXPECT_STREQ(test, r->rodata, "modtest_basic rodata");
	KUNIT_EXPECT_EQ(test, r->add(2, 3), 5);
	KUNIT_EXPECT_PTR_EQ(test, __module_address((unsigned long)r->data),
			    mod);
	KUNIT_EXPECT_PTR_EQ(test, __module_text_address((unsigned long)r->add),
			    mod);
	KUNIT_EXPECT_NULL(test,
			  __module_text_address((unsigned long)r->rodata));
	KUNIT_EXPECT_TRUE(test, is_module_text_address((unsigned long)r->add));
	KUNIT_EXPECT_EQ(test, module_refcount(mod), 0);
	KUNIT_EXPECT_EQ(test, delete_module("modtest_basic"), 0);
	KUNIT_EXPECT_EQ(test, seen.basic_exits, 1);
	KUNIT_EXPECT_FALSE(test, is_loaded("modtest_basic"));
	KUNIT_EXPECT_NULL(test, __module_address((unsigned long)r->add));
	KUNIT_EXPECT_EQ(test, pte_of(r->add), 0);
	KUNIT_EXPECT_EQ(test, pte_of(r->data), 0);
}

static void module_test_wx(struct kunit *test)
{
	struct module *mod = load_ok(test, "modtest_basic");
	const struct modtest_report *r = &seen.report;
	struct module_memory *text = &mod->mem[MOD_TEXT];
	phys_addr_t text_frame;

	KUNIT_EXPECT_EQ(test, pte_of(r->add) & PROT_BITS, _PAGE_PRESENT);
	KUNIT_EXPECT_EQ(test, pte_of(r->rodata) & PROT_BITS,
			_PAGE_PRESENT | _PAGE_NX);
	KUNIT_EXPECT_EQ(test, pte_of(r->data) & PROT_BITS, PROT_BITS);
	KUNIT_EXPECT_EQ(test, pte_of(r->bss) & PROT_BITS, PROT_BITS);
	KUNIT_EXPECT_EQ(test, pte_of(mod) & PROT_BITS, PROT_BITS);
	/* ro_after_init: writable while init ran, sealed once it returned. */
	KUNIT_EXPECT_EQ(test, seen.ro_after_init_pte & PROT_BITS, PROT_BITS);
	KUNIT_EXPECT_EQ(test, pte_of(r->ro_after_init) & PROT_BITS,
			_PAGE_PRESENT | _PAGE_NX);
	/* Init text ran from an RX page, which is gone now. */
	KUNIT_EXPECT_EQ(test, seen.init_text_pte & PROT_BITS, _PAGE_PRESENT);
	KUNIT_EXPECT_NULL(test, mod->mem[MOD_INIT_TEXT].base);
	KUNIT_EXPECT_NULL(test, mod->mem[MOD_INIT_DATA].base);
	KUNIT_EXPECT_EQ(test, pte_of(r->init_text), 0);
	KUNIT_EXPECT_EQ(test, pte_of(r->init_data), 0);
	/* No writable alias of text and read-only data; data's stays RW. */
	KUNIT_EXPECT_EQ(test, alias_pte_of(r->add) & PROT_BITS,
			_PAGE_PRESENT | _PAGE_NX);
	KUNIT_EXPECT_EQ(test, alias_pte_of(r->rodata) & PROT_BITS,
			_PAGE_PRESENT | _PAGE_NX);
	KUNIT_EXPECT_EQ(test, alias_pte_of(r->ro_after_init) & PROT_BITS,
			_PAGE_PRESENT | _PAGE_NX);
	KUNIT_EXPECT_EQ(test, alias_pte_of(r->data) & PROT_BITS, PROT_BITS);
	/* Every region in the module area, each followed by a guard page. */
	KUNIT_EXPECT_TRUE(test, within_module_area((unsigned long)r->add));
	KUNIT_EXPECT_TRUE(test, within_module_mem_type((unsigned long)mod, mod,
						       MOD_DATA));
	KUNIT_EXPECT_EQ(test, pte_of(text->base + ALIGN(text->size, PAGE_SIZE)),
			0);
	text_frame = pte_of(r->add) & PTE_PFN_MASK;
	KUNIT_EXPECT_EQ(test, delete_module("modtest_basic"), 0);
	/* The text's frame went back to the allocator writable again. */
	KUNIT_EXPECT_EQ(test, pte_of(__va(text_frame)) & PROT_BITS, PROT_BITS);
}

static void module_test_symbols(struct kunit *test)
{
	struct module *mod = load_ok(test, "modtest_basic");
	unsigned long size, off;
	const char *modname, *name;
	char buf[96];

	name = module_kallsyms_lookup((unsigned long)seen.report.add + 1, &size,
				      &off, &modname);
	KUNIT_EXPECT_STREQ(test, name, "modtest_basic_add");
	KUNIT_EXPECT_EQ(test, off, 1);
	KUNIT_EXPECT_GT(test, size, 1);
	KUNIT_EXPECT_STREQ(test, modname, "modtest_basic");
	snprintf(buf, sizeof(buf), "%pS", (char *)seen.report.add + 1);
	KUNIT_EXPECT_TRUE_MSG(test,
			      !strncmp(buf, "modtest_basic_add+0x1/0x", 24) &&
				      strstr(buf, " [modtest_basic]"),
			      "%%pS: %s", buf);
	snprintf(buf, sizeof(buf), "%ps", seen.report.rodata);
	KUNIT_EXPECT_STREQ(test, buf, "greeting [modtest_basic]");
	/* The init function's symbol is kept, but its memory is gone. */
	KUNIT_EXPECT_NULL(test, module_kallsyms_lookup(
					(unsigned long)seen.report.init_text,
					NULL, NULL, &modname));
	KUNIT_EXPECT_EQ(test, delete_module(mod->name), 0);
}

static void load_unload_basic(struct kunit *test, const void *unused)
{
	load_ok(test, "modtest_basic");
	KUNIT_ASSERT_EQ(test, delete_module("modtest_basic"), 0);
}

/* A load and an unload leave frames, kmalloc and the area as they were. */
static void module_test_no_leak(struct kunit *test)
{
	u64 t0, t1, t2;

	expect_no_leak(test, load_unload_basic, NULL);
	KUNIT_EXPECT_GE(test, seen.basic_exits, 2);
	/* What a load and an unload cost, for the record (not checked). */
	t0 = ktime_get_ns();
	load_ok(test, "modtest_basic");
	t1 = ktime_get_ns();
	KUNIT_EXPECT_EQ(test, delete_module("modtest_basic"), 0);
	t2 = ktime_get_ns();
	kunit_info(test, "modtest_basic: load %llu us, unload %llu us",
		   (t1 - t0) / 1000, (t2 - t1) / 1000);
}

static void module_test_uses_pin(struct kunit *test)
{
	struct module *basic = load_ok(test, "modtest_basic");
	u64 log;

	load_ok(test, "modtest_user");
	KUNIT_EXPECT_EQ(test, seen.value[1], 2 + 3 + 200);
	KUNIT_EXPECT_EQ(test, module_refcount(basic), 1);
	log = printk_log_end();
	KUNIT_EXPECT_EQ(test, delete_module("modtest_basic"), -EBUSY);
	KUNIT_EXPECT_TRUE(
		test,
		printk_log_contains(
			log,
			"module modtest_basic is in use by modtest_user\n"));
	KUNIT_EXPECT_EQ(test, seen.basic_exits, 0);
	KUNIT_EXPECT_EQ(test, delete_module("modtest_user"), 0);
	KUNIT_EXPECT_EQ(test, seen.user_exits, 1);
	KUNIT_EXPECT_EQ(test, module_refcount(basic), 0);
	KUNIT_EXPECT_EQ(test, delete_module("modtest_basic"), 0);
	KUNIT_EXPECT_EQ(test, seen.basic_exits, 1);
}

static void module_test_get_put(struct kunit *test)
{
	struct module *mod = load_ok(test, "modtest_basic");
	u64 log;

	KUNIT_EXPECT_TRUE(test, try_module_get(mod));
	__module_get(mod);
	KUNIT_EXPECT_EQ(test, module_refcount(mod), 2);
	log = printk_log_end();
	KUNIT_EXPECT_EQ(test, delete_module("modtest_basic"), -EBUSY);
	KUNIT_EXPECT_TRUE(test,
			  printk_log_contains(
				  log,
				  "module modtest_basic: 2 references held\n"));
	module_put(mod);
	module_put(mod);
	KUNIT_EXPECT_EQ(test, module_refcount(mod), 0);
	KUNIT_EXPECT_EQ(test, delete_module("modtest_basic"), 0);
	/* Its exit ran with the module GOING: no new reference then. */
	KUNIT_EXPECT_EQ(test, seen.get_in_exit, 0);
}

static void module_test_duplicate(struct kunit *test)
{
	struct module *mod;
	u64 log;

	load_ok(test, "modtest_basic");
	log = printk_log_end();
	mod = load_module("modtest_basic");
	KUNIT_EXPECT_EQ(test, PTR_ERR(mod), -EEXIST);
	KUNIT_EXPECT_TRUE(
		test, printk_log_contains(
			      log, "module modtest_basic: already loaded\n"));
	KUNIT_EXPECT_EQ(test, request_module("modtest_basic"), 0);
	KUNIT_EXPECT_EQ(test, delete_module("modtest_basic"), 0);
	KUNIT_EXPECT_EQ(test, seen.basic_exits, 1);
}

static void load_initfail(struct kunit *test, const void *unused)
{
	u64 log = printk_log_end();

	seen.value[0] = 0;
	KUNIT_EXPECT_EQ(test, PTR_ERR(load_module("modtest_initfail")),
			-ENODEV);
	KUNIT_EXPECT_TRUE(
		test,
		printk_log_contains(
			log,
			"module modtest_initfail: init failed with -19\n"));
	KUNIT_EXPECT_EQ(test, seen.value[0], 1);
}

/* init ran and failed: no exit, nothing left, nothing leaked. */
static void module_test_init_fails(struct kunit *test)
{
	expect_no_leak(test, load_initfail, NULL);
	KUNIT_EXPECT_EQ(test, seen.initfail_exits, 0);
	KUNIT_EXPECT_FALSE(test, is_loaded("modtest_initfail"));
}

static void module_test_request_and_names(struct kunit *test)
{
	u64 log;

	KUNIT_EXPECT_EQ(test, request_module("modtest_basic"), 0);
	KUNIT_EXPECT_TRUE(test, is_loaded("modtest_basic"));
	KUNIT_EXPECT_EQ(test, delete_module("modtest_basic"), 0);
	log = printk_log_end();
	KUNIT_EXPECT_EQ(test, PTR_ERR(load_module("modtest_none")), -ENOENT);
	KUNIT_EXPECT_EQ(test, request_module("modtest_none"), -ENOENT);
	KUNIT_EXPECT_TRUE(
		test,
		printk_log_contains(
			log,
			"module modtest_none: not found (no blob of that name)\n"));
	KUNIT_EXPECT_EQ(test, delete_module("modtest_none"), -ENOENT);
	KUNIT_EXPECT_TRUE(
		test,
		printk_log_contains(log, "module modtest_none: not loaded\n"));
}

/* Init runs without module_mutex: it may load a module (no deadlock). */
static void module_test_init_loads_module(struct kunit *test)
{
	seen.value[0] = -1;
	load_ok(test, "modtest_nested");
	KUNIT_EXPECT_EQ(test, seen.value[0], 0);
	KUNIT_EXPECT_TRUE(test, is_loaded("modtest_basic"));
	KUNIT_EXPECT_EQ(test, seen.state_at_init, MODULE_STATE_COMING);
	KUNIT_EXPECT_EQ(test, delete_module("modtest_nested"), 0);
	KUNIT_EXPECT_EQ(test, delete_module("modtest_basic"), 0);
}

/* An init without an exit: refused with -EBUSY and one line, kept. */
static void module_test_no_exit(struct kunit *test)
{
	u64 log;

	if (!is_loaded("modtest_noexit"))
		load_ok(test, "modtest_noexit");
	log = printk_log_end();
	KUNIT_EXPECT_EQ(test, delete_module("modtest_noexit"), -EBUSY);
	KUNIT_EXPECT_TRUE(
		test,
		printk_log_contains(
			log,
			"module modtest_noexit has an init but no exit: it cannot be removed\n"));
	KUNIT_EXPECT_TRUE(test, is_loaded("modtest_noexit"));
}

static char keys_out[256];

static void keys_out_write(const char *s, size_t len)
{
	if (strstr(s, "modtest_deferred_key"))
		strscpy(keys_out, s, sizeof(keys_out));
}

/* The console's keys shows a module's deferred key with its timeout. */
static void expect_keys_timeout(struct kunit *test)
{
	char want[32];

	keys_out[0] = '\0';
	shell_capture_run("keys modtest_deferred_key", keys_out_write);
	snprintf(want, sizeof(want), " %u jiffies\n", HZ / 10);
	KUNIT_EXPECT_TRUE_MSG(test, strstr(keys_out, want), "keys printed: %s",
			      keys_out);
}

/*
 * An exit that leaves its own deferred key's last dec pending: unload
 * runs it (the site turns back to a NOP then), so that no timer is left
 * in freed memory; waiting out the timeout afterwards must not fault.
 */
static void module_test_deferred_flush(struct kunit *test)
{
	unsigned long sites;

	load_ok(test, "modtest_deferred");
	KUNIT_EXPECT_EQ(test, seen.value[0], 1);
	if (IS_ENABLED(CONFIG_JUMP_LABEL))
		expect_keys_timeout(test);
	sites = text_poke_get_stats().sites;
	KUNIT_EXPECT_EQ(test, delete_module("modtest_deferred"), 0);
	/* The exit saw the key still on: the dec was deferred. */
	KUNIT_EXPECT_EQ(test, seen.value[0], 3);
	if (IS_ENABLED(CONFIG_JUMP_LABEL))
		KUNIT_EXPECT_EQ(test, text_poke_get_stats().sites, sites + 1);
	msleep(3 * 1000 / 10);
	KUNIT_EXPECT_FALSE(test, is_loaded("modtest_deferred"));
}

/* A key of its own from the old API's initializer: loads, and flips. */
static void module_test_old_key(struct kunit *test)
{
	seen.value[0] = -1;
	load_ok(test, "modtest_oldkey");
	KUNIT_EXPECT_EQ(test, seen.value[0], 1);
	KUNIT_EXPECT_EQ(test, delete_module("modtest_oldkey"), 0);
}

static struct kunit_case module_test_cases[] = {
	KUNIT_CASE(module_test_load_unload),
	KUNIT_CASE(module_test_wx),
	KUNIT_CASE(module_test_symbols),
	KUNIT_CASE(module_test_no_leak),
	KUNIT_CASE(module_test_uses_pin),
	KUNIT_CASE(module_test_get_put),
	KUNIT_CASE(module_test_duplicate),
	KUNIT_CASE(module_test_init_fails),
	KUNIT_CASE(module_test_request_and_names),
	KUNIT_CASE(module_test_init_loads_module),
	KUNIT_CASE(module_test_no_exit),
	KUNIT_CASE(module_test_deferred_flush),
	KUNIT_CASE(module_test_old_key),
	{}
};

static struct kunit_suite module_test_suite = {
	.name = "module",
	.init = module_test_init,
	.test_cases = module_test_cases,
};

/*
 * Refusals. expect_refusal() is the whole check: refused with err and a
 * log line holding msg, and nothing leaked.
 */
struct refusal {
	const struct module_blob *blob;
	int err;
	const char *msg;
};

static void refuse_once(struct kunit *test, const void *arg)
{
	const struct refusal *r = arg;
	u64 log = printk_log_end();
	struct module *mod = load_module_blob(r->blob);

	if (!IS_ERR(mod)) {
		delete_module(mod->name);
		KUNIT_FAIL(test, "%s was loaded, expected error %d",
			   r->blob->name, r->err);
		kunit_abort(test);
	}
	KUNIT_EXPECT_EQ(test, PTR_ERR(mod), r->err);
	KUNIT_EXPECT_TRUE_MSG(test, printk_log_contains(log, r->msg),
			      "no \"%s\" in the log", r->msg);
}

static void expect_refusal(struct kunit *test, const struct module_blob *blob,
			   int err, const char *msg)
{
	struct refusal r = { blob, err, msg };

	expect_no_leak(test, refuse_once, &r);
}

static void expect_module_refused(struct kunit *test, const char *name, int err,
				  const char *msg)
{
	const struct module_blob *blob = module_blob_find(name);

	KUNIT_ASSERT_NOT_NULL(test, blob);
	expect_refusal(test, blob, err, msg);
}

static void module_refusal_unknown_symbol(struct kunit *test)
{
	expect_module_refused(
		test, "modtest_unknown", -ENOENT,
		"module modtest_unknown: unknown symbol modtest_no_such_symbol\n");
}

static void module_refusal_gpl_only(struct kunit *test)
{
	u64 log = printk_log_end();

	expect_module_refused(
		test, "modtest_nolicense", -EPERM,
		"module modtest_nolicense: GPL-only symbol modtest_gpl_only (of the kernel) used by a module without a GPL-compatible license\n");
	KUNIT_EXPECT_TRUE(
		test,
		printk_log_contains(
			log,
			"module modtest_nolicense: no license, taken as not GPL-compatible\n"));
}

static void module_refusal_export_of_kernel(struct kunit *test)
{
	expect_module_refused(
		test, "modtest_dupkernel", -ENOEXEC,
		"module modtest_dupkernel: exports modtest_kernel_export, which the kernel already exports\n");
}

static void module_refusal_export_of_module(struct kunit *test)
{
	load_ok(test, "modtest_basic");
	expect_module_refused(
		test, "modtest_dupexport", -ENOEXEC,
		"module modtest_dupexport: exports modtest_basic_add, which modtest_basic already exports\n");
	KUNIT_EXPECT_EQ(test, delete_module("modtest_basic"), 0);
}

/*
 * Broken copies of modtest_basic: a mutation edits the copy (and may
 * change the blob's size, name or address), then expect_refusal() runs.
 * A new case is a mutate_ function and a MUTATION_CASE line.
 */
static Elf64_Shdr *shdr_named(u8 *img, const char *name)
{
	Elf64_Ehdr *h = (Elf64_Ehdr *)img;
	Elf64_Shdr *sh = (Elf64_Shdr *)(img + h->e_shoff);
	const char *names = (const char *)img + sh[h->e_shstrndx].sh_offset;
	unsigned int i;

	for (i = 1; i < h->e_shnum; i++)
		if (!strcmp(names + sh[i].sh_name, name))
			return &sh[i];
	return NULL;
}

static Elf64_Shdr *shdr_of(u8 *img, unsigned int i)
{
	return (Elf64_Shdr *)(img + ((Elf64_Ehdr *)img)->e_shoff) + i;
}

/* Section old renamed new in place (new no longer than old): its header. */
static Elf64_Shdr *rename_section(struct kunit *test, u8 *img, const char *old,
				  const char *new)
{
	Elf64_Ehdr *h = (Elf64_Ehdr *)img;
	Elf64_Shdr *s = shdr_named(img, old);

	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_ASSERT_LE(test, strlen(new), strlen(old));
	memcpy(img + shdr_of(img, h->e_shstrndx)->sh_offset + s->sh_name, new,
	       strlen(new) + 1);
	return s;
}

static Elf64_Rela *first_rela(struct kunit *test, u8 *img)
{
	Elf64_Shdr *rs = shdr_named(img, ".rela.text");

	KUNIT_ASSERT_NOT_NULL(test, rs);
	KUNIT_ASSERT_GT(test, rs->sh_size, 0);
	return (Elf64_Rela *)(img + rs->sh_offset);
}

static Elf64_Sym *symtab(struct kunit *test, u8 *img, unsigned int *n)
{
	Elf64_Ehdr *h = (Elf64_Ehdr *)img;
	unsigned int i;

	for (i = 1; i < h->e_shnum; i++) {
		Elf64_Shdr *s = shdr_of(img, i);

		if (s->sh_type == SHT_SYMTAB) {
			*n = s->sh_size / sizeof(Elf64_Sym);
			return (Elf64_Sym *)(img + s->sh_offset);
		}
	}
	KUNIT_FAIL(test, "no symbol table");
	kunit_abort(test);
}

static void mutate_truncated(struct kunit *test, struct module_blob *b, u8 *img)
{
	b->size /= 2;
}

static void mutate_bad_magic(struct kunit *test, struct module_blob *b, u8 *img)
{
	img[3] = 0;
}

static void mutate_not_rel(struct kunit *test, struct module_blob *b, u8 *img)
{
	((Elf64_Ehdr *)img)->e_type = 2;
}

static void mutate_machine(struct kunit *test, struct module_blob *b, u8 *img)
{
	((Elf64_Ehdr *)img)->e_machine = 3;
}

static void mutate_shstrndx(struct kunit *test, struct module_blob *b, u8 *img)
{
	Elf64_Ehdr *h = (Elf64_Ehdr *)img;

	h->e_shstrndx = h->e_shnum;
}

static void mutate_unaligned(struct kunit *test, struct module_blob *b, u8 *img)
{
	memmove(img + 4, img, b->size);
	b->data = img + 4;
}

static void mutate_section_past_end(struct kunit *test, struct module_blob *b,
				    u8 *img)
{
	Elf64_Shdr *s = shdr_named(img, ".text");

	KUNIT_ASSERT_NOT_NULL(test, s);
	s->sh_offset = b->size - 1;
}

static void mutate_alignment(struct kunit *test, struct module_blob *b, u8 *img)
{
	Elf64_Shdr *s = shdr_named(img, ".text");

	KUNIT_ASSERT_NOT_NULL(test, s);
	s->sh_addralign = 3;
}

static void mutate_wx(struct kunit *test, struct module_blob *b, u8 *img)
{
	Elf64_Shdr *s = shdr_named(img, ".data");

	KUNIT_ASSERT_NOT_NULL(test, s);
	s->sh_flags |= SHF_EXECINSTR;
}

static void mutate_sht_rel(struct kunit *test, struct module_blob *b, u8 *img)
{
	Elf64_Shdr *s = shdr_named(img, ".rela.text");

	KUNIT_ASSERT_NOT_NULL(test, s);
	s->sh_type = SHT_REL;
}

static void mutate_no_modinfo(struct kunit *test, struct module_blob *b,
			      u8 *img)
{
	Elf64_Ehdr *h = (Elf64_Ehdr *)img;
	Elf64_Shdr *s = shdr_named(img, ".modinfo");

	KUNIT_ASSERT_NOT_NULL(test, s);
	/* ".modinfo" becomes ".modinfX" in the section name table. */
	img[shdr_of(img, h->e_shstrndx)->sh_offset + s->sh_name + 7] = 'X';
}

static void mutate_wrong_name(struct kunit *test, struct module_blob *b,
			      u8 *img)
{
	b->name = "modtest_other";
}

static void mutate_common(struct kunit *test, struct module_blob *b, u8 *img)
{
	unsigned int n, j;
	Elf64_Sym *sym = symtab(test, img, &n);

	for (j = 1; j < n; j++) {
		if (ELF64_ST_TYPE(sym[j].st_info) == STT_OBJECT) {
			sym[j].st_shndx = SHN_COMMON;
			return;
		}
	}
	KUNIT_FAIL(test, "no object symbol");
}

static void mutate_symbol_name(struct kunit *test, struct module_blob *b,
			       u8 *img)
{
	unsigned int n;
	Elf64_Sym *sym = symtab(test, img, &n);

	KUNIT_ASSERT_GT(test, n, 1);
	sym[n - 1].st_name = 0x7fffffff;
}

static void mutate_reloc_offset(struct kunit *test, struct module_blob *b,
				u8 *img)
{
	Elf64_Shdr *text = shdr_named(img, ".text");

	KUNIT_ASSERT_NOT_NULL(test, text);
	first_rela(test, img)->r_offset = text->sh_size - 2;
}

static void set_rela_type(struct kunit *test, u8 *img, u32 type)
{
	Elf64_Rela *r = first_rela(test, img);

	r->r_info = (r->r_info & ~0xffffffffULL) | type;
}

static void mutate_reloc_gotpcrel(struct kunit *test, struct module_blob *b,
				  u8 *img)
{
	set_rela_type(test, img, R_X86_64_GOTPCREL);
}

static void mutate_reloc_type_200(struct kunit *test, struct module_blob *b,
				  u8 *img)
{
	set_rela_type(test, img, 200);
}

static void mutate_reloc_symbol(struct kunit *test, struct module_blob *b,
				u8 *img)
{
	Elf64_Rela *r = first_rela(test, img);

	r->r_info = (0x12345ULL << 32) | ELF64_R_TYPE(r->r_info);
}

static void mutate_reloc_not_zero(struct kunit *test, struct module_blob *b,
				  u8 *img)
{
	Elf64_Shdr *text = shdr_named(img, ".text");

	KUNIT_ASSERT_NOT_NULL(test, text);
	img[text->sh_offset + first_rela(test, img)->r_offset] = 0xaa;
}

/* An R_X86_64_64 of a kernel address made 32-bit: it cannot zero-extend. */
static void mutate_reloc_overflow(struct kunit *test, struct module_blob *b,
				  u8 *img)
{
	Elf64_Shdr *rs = shdr_named(img, ".rela__ksymtab");
	Elf64_Rela *r;

	KUNIT_ASSERT_NOT_NULL(test, rs);
	r = (Elf64_Rela *)(img + rs->sh_offset);
	KUNIT_ASSERT_EQ(test, ELF64_R_TYPE(r->r_info), R_X86_64_64);
	r->r_info = (r->r_info & ~0xffffffffULL) | R_X86_64_32;
}

/*
 * .data..ro_after_init renamed in place to a per-CPU section (a variant
 * such as Linux's ..page_aligned or ..shared_aligned ones): never loaded
 * as plain data.
 */
static void mutate_percpu_variant(struct kunit *test, struct module_blob *b,
				  u8 *img)
{
	rename_section(test, img, ".data..ro_after_init", ".data..percpu..bad");
}

static void check_mutation(struct kunit *test,
			   void (*mutate)(struct kunit *test,
					  struct module_blob *b, u8 *img),
			   int err, const char *msg)
{
	const struct module_blob *orig = module_blob_find("modtest_basic");
	struct module_blob blob;
	u8 *img;

	KUNIT_ASSERT_NOT_NULL(test, orig);
	img = kunit_kmalloc(test, orig->size + 8, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, img);
	memcpy(img, orig->data, orig->size);
	blob = (struct module_blob){ orig->name, img, orig->size };
	mutate(test, &blob, img);
	expect_refusal(test, &blob, err, msg);
}

/* The .modinfo string of blob's copy img: its value after key=, or NULL. */
static char *modinfo_value(u8 *img, const char *key)
{
	Elf64_Shdr *s = shdr_named(img, ".modinfo");
	char *p, *end;

	if (!s)
		return NULL;
	p = (char *)img + s->sh_offset;
	end = p + s->sh_size;
	for (; p < end; p += strlen(p) + 1)
		if (!strncmp(p, key, strlen(key)) && p[strlen(key)] == '=')
			return p + strlen(key) + 1;
	return NULL;
}

static void mutate_vermagic(struct kunit *test, struct module_blob *b, u8 *img)
{
	char *v = modinfo_value(img, "vermagic");

	KUNIT_ASSERT_NOT_NULL(test, v);
	KUNIT_ASSERT_EQ(test, v[0], '1');
	v[0] = '2'; /* "2.0-static-keys ...": another release */
}

static void mutate_no_vermagic(struct kunit *test, struct module_blob *b,
			       u8 *img)
{
	char *v = modinfo_value(img, "vermagic");

	KUNIT_ASSERT_NOT_NULL(test, v);
	v[-1] = '_'; /* "vermagic_...": not the record the loader reads */
}

static void mutate_no_versions(struct kunit *test, struct module_blob *b,
			       u8 *img)
{
	rename_section(test, img, "__versions", "__versionX");
}

/*
 * The first __versions entry's CRC with its low bit flipped: what a module
 * built against another form of that symbol's types carries.
 */
static char version_msg[160];

static void mutate_version_crc(struct kunit *test, struct module_blob *b,
			       u8 *img)
{
	Elf64_Shdr *s = shdr_named(img, "__versions");
	struct modversion_info *v;

	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_ASSERT_GE(test, s->sh_size, sizeof(*v));
	v = (struct modversion_info *)(img + s->sh_offset);
	snprintf(
		version_msg, sizeof(version_msg),
		"module modtest_basic: symbol %s has version 0x%08lx, the kernel's is 0x%08lx: the types it names differ, refused (-ENOEXEC)\n",
		v->name, v->crc ^ 1, v->crc);
	v->crc ^= 1;
}

#define MUTATION_CASE(name, err, msg)                          \
	static void module_refusal_##name(struct kunit *test)  \
	{                                                      \
		check_mutation(test, mutate_##name, err, msg); \
	}

MUTATION_CASE(truncated, -ENOEXEC, "is not inside the file (0x")
MUTATION_CASE(bad_magic, -ENOEXEC,
	      "module modtest_basic: bad ELF magic 7f 45 4c 00\n")
MUTATION_CASE(not_rel, -ENOEXEC,
	      "module modtest_basic: not a relocatable object (e_type 2)\n")
MUTATION_CASE(machine, -ENOEXEC,
	      "module modtest_basic: not x86-64 (e_machine 3)\n")
MUTATION_CASE(shstrndx, -ENOEXEC, "is not a section (")
MUTATION_CASE(unaligned, -EINVAL, "is not 8-byte aligned\n")
MUTATION_CASE(section_past_end, -ENOEXEC,
	      " (.text) ends past the file (offset 0x")
MUTATION_CASE(alignment, -ENOEXEC,
	      " (.text): alignment 0x3 is not a power of two\n")
MUTATION_CASE(wx, -ENOEXEC, " (.data) is writable and executable\n")
MUTATION_CASE(sht_rel, -ENOEXEC,
	      " (.rela.text): SHT_REL relocations are not supported")
MUTATION_CASE(no_modinfo, -ENOEXEC,
	      "module modtest_basic: no .modinfo section\n")
MUTATION_CASE(wrong_name, -EINVAL,
	      "module modtest_other: .modinfo says name=modtest_basic\n")
MUTATION_CASE(common, -ENOEXEC,
	      "is common (SHN_COMMON): build with -fno-common\n")
MUTATION_CASE(symbol_name, -ENOEXEC,
	      ": name offset 0x7fffffff is past the string table")
MUTATION_CASE(reloc_offset, -ENOEXEC,
	      "module modtest_basic: relocation 0 in .rela.text: offset 0x")
MUTATION_CASE(
	reloc_gotpcrel, -ENOEXEC,
	"module modtest_basic: relocation 0 in .rela.text: unsupported relocation R_X86_64_GOTPCREL (9)\n")
MUTATION_CASE(
	reloc_type_200, -ENOEXEC,
	"module modtest_basic: relocation 0 in .rela.text: unsupported relocation type 200\n")
MUTATION_CASE(
	reloc_symbol, -ENOEXEC,
	"module modtest_basic: relocation 0 in .rela.text: symbol index 74565 is past the symbol table")
MUTATION_CASE(reloc_not_zero, -ENOEXEC,
	      "is not zero (applied twice, or a corrupt file)\n")
MUTATION_CASE(
	reloc_overflow, -ENOEXEC,
	"module modtest_basic: relocation 0 in .rela__ksymtab: R_X86_64_32 value 0xffffffffa")
/* .data..ro_after_init renamed .data..percpu, made read-only. */
static void mutate_percpu_not_data(struct kunit *test, struct module_blob *b,
				   u8 *img)
{
	Elf64_Shdr *s = rename_section(test, img, ".data..ro_after_init",
				       ".data..percpu");

	s->sh_flags &= ~SHF_WRITE;
}

MUTATION_CASE(
	percpu_not_data, -ENOEXEC,
	" (.data..percpu): a per-CPU section must be writable data (type 1, flags 0x2)\n")
MUTATION_CASE(
	percpu_variant, -ENOEXEC,
	" (.data..percpu..bad): per-CPU section variants are not supported in modules (only .data..percpu)\n")

MUTATION_CASE(vermagic, -ENOEXEC,
	      "module modtest_basic: version magic '2.0-static-keys ")
MUTATION_CASE(
	no_vermagic, -ENOEXEC,
	"module modtest_basic: no version magic (vermagic= in .modinfo) where '" VERMAGIC_STRING
	"' is needed, refused (-ENOEXEC)\n")
MUTATION_CASE(no_versions, -ENOEXEC,
	      "module modtest_basic: no version for symbol modtest_")
MUTATION_CASE(version_crc, -ENOEXEC, version_msg)

static struct kunit_case module_refusal_cases[] = {
	KUNIT_CASE(module_refusal_unknown_symbol),
	KUNIT_CASE(module_refusal_gpl_only),
	KUNIT_CASE(module_refusal_export_of_kernel),
	KUNIT_CASE(module_refusal_export_of_module),
	KUNIT_CASE(module_refusal_truncated),
	KUNIT_CASE(module_refusal_bad_magic),
	KUNIT_CASE(module_refusal_not_rel),
	KUNIT_CASE(module_refusal_machine),
	KUNIT_CASE(module_refusal_shstrndx),
	KUNIT_CASE(module_refusal_unaligned),
	KUNIT_CASE(module_refusal_section_past_end),
	KUNIT_CASE(module_refusal_alignment),
	KUNIT_CASE(module_refusal_wx),
	KUNIT_CASE(module_refusal_sht_rel),
	KUNIT_CASE(module_refusal_no_modinfo),
	KUNIT_CASE(module_refusal_wrong_name),
	KUNIT_CASE(module_refusal_common),
	KUNIT_CASE(module_refusal_symbol_name),
	KUNIT_CASE(module_refusal_reloc_offset),
	KUNIT_CASE(module_refusal_reloc_gotpcrel),
	KUNIT_CASE(module_refusal_reloc_type_200),
	KUNIT_CASE(module_refusal_reloc_symbol),
	KUNIT_CASE(module_refusal_reloc_not_zero),
	KUNIT_CASE(module_refusal_reloc_overflow),
	KUNIT_CASE(module_refusal_percpu_variant),
	KUNIT_CASE(module_refusal_percpu_not_data),
	KUNIT_CASE(module_refusal_vermagic),
	KUNIT_CASE(module_refusal_no_vermagic),
	KUNIT_CASE(module_refusal_no_versions),
	KUNIT_CASE(module_refusal_version_crc),
	{}
};

static struct kunit_suite module_refusal_suite = {
	.name = "module_refusal",
	.init = module_test_init,
	.test_cases = module_refusal_cases,
};

/*
 * Unloading: an exit that forgets what its init started (modtest_leak
 * leave=...) is refused while it still points into the module, with one
 * line naming it, and the module stays, its exit run once; once the
 * leftover ends, the next rmmod unloads it.
 */
static int module_unload_init(struct kunit *test)
{
	module_test_init(test);
	WRITE_ONCE(modtest_leak_release, 0);
	memset(&leak, 0, sizeof(leak));
	return 0;
}

/* Up to 5 s for cond, polled every millisecond (once each: it may act). */
#define wait_for(cond)                                             \
	({                                                         \
		u64 __end = ktime_get_ns() + 5000000000ULL;        \
		bool __ok;                                         \
		while (!(__ok = (cond)) && ktime_get_ns() < __end) \
			msleep(1);                                 \
		__ok;                                              \
	})

static void expect_unload_refused(struct kunit *test, const char *leave,
				  const char *what)
{
	char args[32];
	u64 log = printk_log_end();
	struct module *mod;

	snprintf(args, sizeof(args), "leave=%s", leave);
	mod = load_module("modtest_leak", args);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(mod), "load: %ld", PTR_ERR(mod));
	KUNIT_EXPECT_EQ(test, delete_module("modtest_leak"), -EBUSY);
	KUNIT_EXPECT_TRUE_MSG(test, printk_log_contains(log, what),
			      "no \"%s\" in the log", what);
	KUNIT_EXPECT_TRUE(
		test,
		printk_log_contains(
			log,
			" still points into it after its exit: it stays in memory until rmmod finds nothing, refused (-EBUSY)\n"));
	KUNIT_EXPECT_TRUE(test, is_loaded("modtest_leak"));
	KUNIT_EXPECT_EQ(test, mod->state, MODULE_STATE_GOING);
	KUNIT_EXPECT_EQ(test, seen.exits, 1);
	/* Gone from the exports and unpinnable, as any going module. */
	KUNIT_EXPECT_FALSE(test, try_module_get(mod));
	/* Asked again while it still points in: refused again. */
	if (strcmp(leave, "timer"))
		KUNIT_EXPECT_EQ(test, delete_module("modtest_leak"), -EBUSY);
	if (leak.probe)
		KUNIT_EXPECT_EQ(test,
				tracepoint_probe_unregister(
					tracepoint_find("sched_switch"),
					leak.probe, leak.data),
				0);
	WRITE_ONCE(modtest_leak_release, 1);
	if (strcmp(leave, "probe"))
		KUNIT_EXPECT_TRUE_MSG(test, wait_for(READ_ONCE(leak.done)),
				      "the %s never ended", leave);
	/* It may still be returning from its last call into the module. */
	KUNIT_EXPECT_TRUE(test, wait_for(delete_module("modtest_leak") == 0));
	KUNIT_EXPECT_FALSE(test, is_loaded("modtest_leak"));
	KUNIT_EXPECT_EQ(test, seen.exits, 1); /* exit ran once */
}

static void module_unload_timer(struct kunit *test)
{
	expect_unload_refused(
		test, "timer",
		"module modtest_leak: a pending timer (modtest_leak_timer_fn [modtest_leak], timer at ");
}

static void module_unload_work(struct kunit *test)
{
	expect_unload_refused(
		test, "work",
		" work item (modtest_leak_work_fn [modtest_leak], ");
}

static void module_unload_rcu(struct kunit *test)
{
	expect_unload_refused(
		test, "rcu",
		" RCU callback (modtest_leak_rcu_fn [modtest_leak]");
}

static void module_unload_kthread(struct kunit *test)
{
	expect_unload_refused(
		test, "kthread",
		"module modtest_leak: a kthread (modtest_leak, running modtest_leak_thread [modtest_leak])");
}

static void module_unload_probe(struct kunit *test)
{
	expect_unload_refused(
		test, "probe",
		"module modtest_leak: a probe (modtest_leak_probe [modtest_leak]) on tracepoint sched_switch");
}

/* Nothing left behind: the unload goes through at once. */
static void module_unload_clean(struct kunit *test)
{
	KUNIT_ASSERT_FALSE(test,
			   IS_ERR(load_module("modtest_leak", "leave=none")));
	KUNIT_EXPECT_EQ(test, delete_module("modtest_leak"), 0);
	KUNIT_EXPECT_EQ(test, seen.exits, 1);
}

static struct kunit_case module_unload_cases[] = {
	KUNIT_CASE(module_unload_timer),
	KUNIT_CASE(module_unload_work),
	KUNIT_CASE(module_unload_rcu),
	KUNIT_CASE(module_unload_kthread),
	KUNIT_CASE(module_unload_probe),
	KUNIT_CASE(module_unload_clean),
	{}
};

static struct kunit_suite module_unload_suite = {
	.name = "module_unload",
	.init = module_unload_init,
	.test_cases = module_unload_cases,
};

kunit_test_suites(&module_test_suite, &module_refusal_suite,
		  &module_unload_suite);
