// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "static_call": static calls of the kernel image (their
 * sites are in the build's table). Each case checks what the calls
 * return and, with CONFIG_STATIC_CALL, the bytes at every site and at the
 * trampoline; an update is one batch of three sync rounds however many
 * sites; bad input (NULL on a call not _NULL, interrupt context, a site
 * holding other bytes) is refused, named, and changes nothing. With
 * CONFIG_STATIC_CALL=n the same cases pass on the indirect calls.
 *
 * The SMP stress (callers on every CPU while the targets change) and
 * the module cases are in tests/modules/static_call/, against Linux's API
 * only.
 */
#include <linux/kernel.h>
#include <linux/irqflags.h>
#include <linux/memory.h>
#include <linux/printk.h>
#include <linux/shell.h>
#include <linux/static_call.h>
#include <linux/string.h>
#include <asm/text-patching.h>
#include <linux/text-patching.h>
#include <kunit/test.h>
#include <fixtures/shell_capture.h>
#include <fixtures/text_spoil.h>
#ifdef CONFIG_STATIC_CALL
#include <linux/static_call_arch.h>
#endif

static noinline int sct_add1(int x)
{
	return x + 1;
}

static noinline int sct_add2(int x)
{
	return x + 2;
}

static noinline int sct_add3(int x)
{
	return x + 3;
}

static noinline long sct_wrong_type(int x, int y)
{
	return x + y;
}

DEFINE_STATIC_CALL(sct_add, sct_add1);

static noinline int sct_call_add(int x)
{
	return static_call(sct_add)(x) * 10;
}

static int sct_hook_runs;
static noinline void sct_hook_fn(int n)
{
	sct_hook_runs += n;
}

DEFINE_STATIC_CALL_NULL(sct_hook, sct_hook_fn);

static noinline void sct_call_hook(int n)
{
	static_call_cond(sct_hook)(n);
	barrier(); /* a call, not a tail call */
}

static noinline long sct_ret42(void)
{
	return 42;
}

DEFINE_STATIC_CALL_RET0(sct_ret, sct_ret42);

static noinline long sct_call_ret(void)
{
	return static_call(sct_ret)() + 1;
}

/* A tail call: "jmp __SCT__sct_tail", a jmp site. */
DEFINE_STATIC_CALL(sct_tail, sct_add1);

static noinline int sct_call_tail(int x)
{
	return static_call(sct_tail)(x + 100);
}

DEFINE_STATIC_CALL(sct_bad, sct_add1);

static noinline __maybe_unused int sct_call_bad(int x)
{
	return static_call(sct_bad)(x) * 10;
}

/* 56 sites of one call (the many-sites cases and the bench). */
DEFINE_STATIC_CALL(sct_many, sct_add1);
#define SCT_4(x) x x x x
#define SCT_CALL s += static_call(sct_many)(s);
static noinline unsigned int sct_call_many(void)
{
	unsigned int s = 0;

	SCT_4(SCT_4(SCT_CALL)) SCT_4(SCT_4(SCT_CALL))
	SCT_4(SCT_4(SCT_CALL)) SCT_4(SCT_CALL) SCT_4(SCT_CALL)
	return s;
}

/* Every site of key (and its trampoline) holds func's instruction. */
static void sct_expect_sites(struct kunit *test, struct static_call_key *key,
			     void *func, unsigned int want_sites)
{
#ifdef CONFIG_STATIC_CALL
	unsigned int i;
	void *addr;
	u8 want[STATIC_CALL_INSN_SIZE];

	KUNIT_EXPECT_EQ_MSG(test, static_call_nr_sites(key), want_sites + 1,
			    "sites of %s", key->name);
	for (i = 0; (addr = static_call_site_addr(key, i) ?:
				(i == want_sites ? key->tramp : NULL));
	     i++) {
		/* The trampoline (last here) is a tail site. */
		bool tail = i == want_sites || *(u8 *)addr == JMP32_OPCODE ||
			    *(u8 *)addr == RET_INSN_OPCODE;

		arch_static_call_insn(want, addr, func, tail);
		KUNIT_EXPECT_TRUE_MSG(test,
				      !memcmp(addr, want, STATIC_CALL_INSN_SIZE),
				      "%s site %u at %pS holds %5ph, expected %5ph",
				      key->name, i, addr, addr, want);
	}
#endif
}

static void sct_test_direct(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, sct_call_add(1), 20);
	sct_expect_sites(test, &STATIC_CALL_KEY(sct_add), sct_add1, 1);
	KUNIT_EXPECT_PTR_EQ(test, static_call_query(sct_add), (void *)sct_add1);
	KUNIT_EXPECT_EQ(test, static_call_update(sct_add, sct_add2), 0);
	KUNIT_EXPECT_EQ(test, sct_call_add(1), 30);
	KUNIT_EXPECT_PTR_EQ(test, static_call_query(sct_add), (void *)sct_add2);
	sct_expect_sites(test, &STATIC_CALL_KEY(sct_add), sct_add2, 1);
	/* The same target again writes nothing. */
	KUNIT_EXPECT_EQ(test, static_call_update(sct_add, sct_add2), 0);
	KUNIT_EXPECT_EQ(test, static_call_update(sct_add, &sct_add1), 0);
	KUNIT_EXPECT_EQ(test, sct_call_add(1), 20);
	sct_expect_sites(test, &STATIC_CALL_KEY(sct_add), sct_add1, 1);
}

/* Code that takes the trampoline's address calls the current target. */
static void sct_test_trampoline(struct kunit *test)
{
	int (*volatile fp)(int) = STATIC_CALL_TRAMP_ADDR(sct_add);

	if (!fp)
		kunit_skip(test, "CONFIG_STATIC_CALL=n: no trampoline");
	KUNIT_EXPECT_EQ(test, fp(5), 6);
	static_call_update(sct_add, sct_add2);
	KUNIT_EXPECT_EQ(test, fp(5), 7);
	static_call_update(sct_add, sct_add1);
	KUNIT_EXPECT_EQ(test, fp(5), 6);
}

static void sct_test_null(struct kunit *test)
{
	sct_hook_runs = 0;
	sct_call_hook(3);
	KUNIT_EXPECT_EQ(test, sct_hook_runs, 0);
	KUNIT_EXPECT_PTR_EQ(test, static_call_query(sct_hook), NULL);
	sct_expect_sites(test, &STATIC_CALL_KEY(sct_hook), NULL, 1);
	KUNIT_EXPECT_EQ(test, static_call_update(sct_hook, sct_hook_fn), 0);
	sct_call_hook(3);
	KUNIT_EXPECT_EQ(test, sct_hook_runs, 3);
	sct_expect_sites(test, &STATIC_CALL_KEY(sct_hook), sct_hook_fn, 1);
	KUNIT_EXPECT_EQ(test, static_call_update(sct_hook, NULL), 0);
	sct_call_hook(3);
	KUNIT_EXPECT_EQ(test, sct_hook_runs, 3);
	sct_expect_sites(test, &STATIC_CALL_KEY(sct_hook), NULL, 1);
}

static void sct_test_ret0(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, sct_call_ret(), 1);
	KUNIT_EXPECT_PTR_EQ(test, static_call_query(sct_ret),
			    (void *)__static_call_return0);
	sct_expect_sites(test, &STATIC_CALL_KEY(sct_ret),
			 __static_call_return0, 1);
#ifdef CONFIG_STATIC_CALL
	/* Inline: "mov $0, %eax", no call at all. */
	KUNIT_EXPECT_EQ(test,
			*(u8 *)static_call_site_addr(&STATIC_CALL_KEY(sct_ret), 0),
			MOV_EAX_IMM_OPCODE);
#endif
	static_call_update(sct_ret, sct_ret42);
	KUNIT_EXPECT_EQ(test, sct_call_ret(), 43);
	sct_expect_sites(test, &STATIC_CALL_KEY(sct_ret), sct_ret42, 1);
	static_call_update(sct_ret, __static_call_return0);
	KUNIT_EXPECT_EQ(test, sct_call_ret(), 1);
	sct_expect_sites(test, &STATIC_CALL_KEY(sct_ret),
			 __static_call_return0, 1);
}

static void sct_test_tail(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, sct_call_tail(1), 102);
#ifdef CONFIG_STATIC_CALL
	KUNIT_EXPECT_EQ(test,
			*(u8 *)static_call_site_addr(&STATIC_CALL_KEY(sct_tail), 0),
			JMP32_OPCODE);
#endif
	sct_expect_sites(test, &STATIC_CALL_KEY(sct_tail), sct_add1, 1);
	static_call_update(sct_tail, sct_add2);
	KUNIT_EXPECT_EQ(test, sct_call_tail(1), 103);
	sct_expect_sites(test, &STATIC_CALL_KEY(sct_tail), sct_add2, 1);
	static_call_update(sct_tail, sct_add1);
}

/* 56 sites and the trampoline: one batch, three sync rounds. */
static void sct_test_one_batch(struct kunit *test)
{
	struct text_poke_stats before = text_poke_get_stats();
	unsigned int want1 = 0, want2 = 0, i;

	for (i = 0; i < 56; i++) {
		want1 += want1 + 1;
		want2 += want2 + 2;
	}
	KUNIT_EXPECT_EQ(test, sct_call_many(), want1);
	sct_expect_sites(test, &STATIC_CALL_KEY(sct_many), sct_add1, 56);
	static_call_update(sct_many, sct_add2);
	if (IS_ENABLED(CONFIG_STATIC_CALL)) {
		KUNIT_EXPECT_EQ(test, text_poke_get_stats().batches - before.batches, 1);
		KUNIT_EXPECT_EQ(test,
				text_poke_get_stats().sync_rounds - before.sync_rounds, 3);
		KUNIT_EXPECT_EQ(test, text_poke_get_stats().sites - before.sites, 57);
	}
	KUNIT_EXPECT_EQ(test, sct_call_many(), want2);
	sct_expect_sites(test, &STATIC_CALL_KEY(sct_many), sct_add2, 56);
	static_call_update(sct_many, sct_add1);
	KUNIT_EXPECT_EQ(test, sct_call_many(), want1);
}

/* NULL on a call that is not _NULL: WARN once, naming it; unchanged. */
static void sct_test_null_refused(struct kunit *test)
{
	unsigned long warns = nr_warnings;
	u64 log = printk_log_end();

	KUNIT_EXPECT_EQ(test, static_call_update(sct_add, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	KUNIT_EXPECT_TRUE(test, printk_log_contains(
		log, "static_call: sct_add set to NULL, but it is not DEFINE_STATIC_CALL_NULL: unchanged"));
	KUNIT_EXPECT_PTR_EQ(test, static_call_query(sct_add), (void *)sct_add1);
	KUNIT_EXPECT_EQ(test, sct_call_add(1), 20);
	sct_expect_sites(test, &STATIC_CALL_KEY(sct_add), sct_add1, 1);
	KUNIT_EXPECT_EQ(test, static_call_update(sct_add, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1); /* once per call */
}

/* From interrupt context (here: interrupts off): WARN, refused. */
static void sct_test_irq_refused(struct kunit *test)
{
	unsigned long warns = nr_warnings, flags;
	u64 log = printk_log_end();
	int ret;

	local_irq_save(flags);
	ret = static_call_update(sct_add, sct_add2);
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, ret, -EPERM);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	KUNIT_EXPECT_TRUE(test, printk_log_contains(
		log, "static_call: sct_add updated from interrupt context: refused"));
	KUNIT_EXPECT_PTR_EQ(test, static_call_query(sct_add), (void *)sct_add1);
	KUNIT_EXPECT_EQ(test, sct_call_add(1), 20);
	sct_expect_sites(test, &STATIC_CALL_KEY(sct_add), sct_add1, 1);
}

/* A site holding other bytes: named with its call, nothing written. */
static void sct_test_bad_site(struct kunit *test)
{
#ifdef CONFIG_STATIC_CALL
	void *tramp = STATIC_CALL_KEY(sct_bad).tramp;
	u8 *site = static_call_site_addr(&STATIC_CALL_KEY(sct_bad), 0);
	u8 junk[5] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 }, tsaved[5];
	u64 log = printk_log_end();
	struct text_spoil spoil;
	char msg[128];

	KUNIT_ASSERT_NOT_NULL(test, site);
	KUNIT_EXPECT_EQ(test, sct_call_bad(1), 20);
	memcpy(tsaved, tramp, 5);
	text_spoil(&spoil, site, junk, 5);
	KUNIT_EXPECT_EQ(test, static_call_update(sct_bad, sct_add2), -EINVAL);
	scnprintf(msg, sizeof(msg), "static_call: site %pS of call sct_bad holds 0f 1f 44 00 00",
		  site);
	KUNIT_EXPECT_TRUE_MSG(test, printk_log_contains(log, msg),
			      "no \"%s\" in the log", msg);
	KUNIT_EXPECT_TRUE(test, printk_log_contains(log, ": nothing written"));
	KUNIT_EXPECT_PTR_EQ(test, static_call_query(sct_bad), (void *)sct_add1);
	KUNIT_EXPECT_TRUE(test, !memcmp(site, junk, 5));
	KUNIT_EXPECT_TRUE(test, !memcmp(tramp, tsaved, 5));
	text_unspoil(&spoil);
	KUNIT_EXPECT_EQ(test, static_call_update(sct_bad, sct_add2), 0);
	KUNIT_EXPECT_EQ(test, sct_call_bad(1), 30);
	static_call_update(sct_bad, sct_add1);
#else
	kunit_skip(test, "CONFIG_STATIC_CALL=n: no sites");
#endif
}

/* The kernel's table: sorted by trampoline, then site; each a call. */
static void sct_test_table(struct kunit *test)
{
	extern const struct static_call_site __start_static_call_sites[];
	extern const struct static_call_site __stop_static_call_sites[];
	const struct static_call_site *s;
	unsigned long prev_t = 0, prev_a = 0, t, a;
	unsigned int n = 0;

	for (s = __start_static_call_sites; s < __stop_static_call_sites; s++) {
		t = (unsigned long)&s->tramp + s->tramp;
		a = (unsigned long)&s->addr + s->addr;
		KUNIT_EXPECT_TRUE(test, t > prev_t || (t == prev_t && a > prev_a));
		prev_t = t;
		prev_a = a;
		n++;
	}
	if (IS_ENABLED(CONFIG_STATIC_CALL))
		KUNIT_EXPECT_GE(test, n, 61); /* this suite's */
	else
		KUNIT_EXPECT_EQ(test, n, 0);
	(void)sct_wrong_type;
}

/* The console: calls lists, retargets to known targets only. */
static void sct_test_console(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, shell_capture("calls sct_a*"), 0);
	KUNIT_EXPECT_TRUE_MSG(test, strstr(shell_capture_out, "sct_add ") &&
				    strstr(shell_capture_out, " sct_add1+0x0/"),
			      "%s", shell_capture_out);
	KUNIT_EXPECT_TRUE_MSG(test, strstr(shell_capture_out, "1 of ") != NULL, "%s",
			      shell_capture_out);
	KUNIT_EXPECT_EQ(test, shell_capture("calls sct_many"), 0);
	KUNIT_EXPECT_TRUE_MSG(test, strstr(shell_capture_out, IS_ENABLED(CONFIG_STATIC_CALL) ?
						   "    56 " : " indirect "),
			      "%s", shell_capture_out);
	/* sct_add3 becomes a known target once set. */
	KUNIT_EXPECT_EQ(test, shell_capture("calls sct_add sct_add3"), -EINVAL);
	KUNIT_EXPECT_TRUE_MSG(test, strstr(shell_capture_out,
		"calls: sct_add3 is not a known target of sct_add: refused") != NULL,
		"%s", shell_capture_out);
	KUNIT_EXPECT_TRUE_MSG(test, strstr(shell_capture_out, "calls: sct_add's known targets: sct_add1") != NULL,
			      "%s", shell_capture_out);
	KUNIT_EXPECT_EQ(test, sct_call_add(1), 20);
	static_call_update(sct_add, sct_add3);
	static_call_update(sct_add, sct_add1);
	KUNIT_EXPECT_EQ(test, shell_capture("calls sct_add sct_add3"), 0);
	KUNIT_EXPECT_EQ(test, sct_call_add(1), 40);
	if (IS_ENABLED(CONFIG_STATIC_CALL))
		KUNIT_EXPECT_TRUE_MSG(
			test, strstr(shell_capture_out, "calls: sct_add -> sct_add3+0x0/") &&
				      strstr(shell_capture_out, ": 2 sites in 1 batches, 3 sync rounds"),
			"%s", shell_capture_out);
	KUNIT_EXPECT_EQ(test, shell_capture("calls sct_add sct_add1"), 0);
	KUNIT_EXPECT_EQ(test, sct_call_add(1), 20);
	KUNIT_EXPECT_EQ(test, shell_capture("calls sct_add sct_ret42"), -EINVAL);
	KUNIT_EXPECT_TRUE_MSG(test, strstr(shell_capture_out,
		"calls: sct_ret42 is not a known target of sct_add: refused") != NULL,
		"%s", shell_capture_out);
	KUNIT_EXPECT_EQ(test, sct_call_add(1), 20);
	KUNIT_EXPECT_EQ(test, shell_capture("calls sct_hook NULL"), 0);
	KUNIT_EXPECT_EQ(test, shell_capture("calls no_such_call NULL"), -ENOENT);
	KUNIT_EXPECT_TRUE(test, strstr(shell_capture_out, "calls: no static call no_such_call") != NULL);
	KUNIT_EXPECT_EQ(test, shell_capture("calls no_such_*"), -ENOENT);
}

/*
 * static_call_text_reserved(), which a patcher of other text asks first:
 * every byte of a call site is reserved, a function without one is not.
 */
static void sct_test_text_reserved(struct kunit *test)
{
	char *site = static_call_site_addr(&STATIC_CALL_KEY(sct_add), 0);
	char *plain = (char *)sct_add1;

	KUNIT_EXPECT_EQ(test, static_call_text_reserved(plain, plain + 1), 0);
	if (!IS_ENABLED(CONFIG_STATIC_CALL))
		return; /* no sites */
	KUNIT_ASSERT_NOT_NULL(test, site);
	KUNIT_EXPECT_EQ(test, static_call_text_reserved(site, site + 1), 1);
	KUNIT_EXPECT_EQ(test, static_call_text_reserved(site + 4, site + 5), 1);
	KUNIT_EXPECT_EQ(test, static_call_text_reserved(site - 8, site + 8), 1);
}

static struct kunit_case sct_cases[] = {
	KUNIT_CASE(sct_test_direct),
	KUNIT_CASE(sct_test_trampoline),
	KUNIT_CASE(sct_test_null),
	KUNIT_CASE(sct_test_ret0),
	KUNIT_CASE(sct_test_tail),
	KUNIT_CASE(sct_test_one_batch),
	KUNIT_CASE(sct_test_null_refused),
	KUNIT_CASE(sct_test_irq_refused),
	KUNIT_CASE(sct_test_bad_site),
	KUNIT_CASE(sct_test_table),
	KUNIT_CASE(sct_test_console),
	KUNIT_CASE(sct_test_text_reserved),
	{}
};

static struct kunit_suite sct_suite = {
	.name = "static_call",
	.test_cases = sct_cases,
};
kunit_test_suite(sct_suite);
