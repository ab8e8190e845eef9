// SPDX-License-Identifier: GPL-2.0
/*
 * The KUnit-style runner: walks the suites in .kunit_test_suites, runs each
 * case with an abort point (ASSERT and kunit_skip() longjmp back here) and
 * reports KTAP version 1:
 *
 *   KTAP version 1
 *   1..<suites>
 *       KTAP version 1
 *       # Subtest: <suite>
 *       1..<cases>
 *       ok 1 <case>            (or "not ok", or "ok 1 <case> # SKIP why")
 *   ok 1 <suite>
 *
 * kunit.filter_glob=SUITE_GLOB[.CASE_GLOB] on the command line selects (a
 * comma-separated list of them, "-" before one excludes its matches: make
 * test splits one kernel's suites between boots so), and
 * kunit.filter=ATTR-FILTER (speed>slow, as in Linux) narrows the choice.
 */
#include <linux/kernel.h>
#include <linux/completion.h>
#include <linux/export.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tick.h>
#include <linux/timekeeping.h>
#include <kunit/test.h>
#include <kunit/test-bug.h>
#include "kunit_internal.h"

/*
 * The layout scripts/kunit_suites.py reads from the built objects to know
 * which suites and cases a build must report: change both together.
 */
_Static_assert(offsetof(struct kunit_suite, name) == 0 &&
		       sizeof(((struct kunit_suite *)0)->name) == 256 &&
		       offsetof(struct kunit_suite, test_cases) == 288 &&
		       sizeof(struct kunit_case) == 24 &&
		       offsetof(struct kunit_case, run_case) == 0 &&
		       offsetof(struct kunit_case, name) == 8,
	       "scripts/kunit_suites.py reads struct kunit_suite and kunit_case with this layout");

extern struct kunit_suite *const __kunit_suites_start[];
extern struct kunit_suite *const __kunit_suites_end[];

static char *filter_glob;
core_param_named("kunit.filter_glob", filter_glob, charp);
static char *filter_attr;
core_param_named("kunit.filter", filter_attr, charp);
/* Seconds a case may run before it fails (0: no limit), as in Linux. */
static unsigned int kunit_timeout_s = 600;
core_param_named("kunit.timeout", kunit_timeout_s, uint);

struct kunit_resource_node {
	struct kunit_resource_node *next;
	/* the allocation follows */
};

#define SUITE_INDENT "    "

void kunit_log(struct kunit *test, const char *fmt, ...)
{
	char buf[512];
	const char *line, *nl;
	va_list args;

	if (test->silent)
		return;
	va_start(args, fmt);
	vscnprintf(buf, sizeof(buf), fmt, args);
	va_end(args);
	/* Every line of a diagnostic is a KTAP "#" line. */
	for (line = buf; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (!nl) {
			printk(SUITE_INDENT "# %s\n", line);
			break;
		}
		printk(SUITE_INDENT "# %.*s\n", (int)(nl - line), line);
	}
}
EXPORT_SYMBOL_GPL(kunit_log);

void __kunit_msg_print(struct kunit *test, const char *fmt, ...)
{
	char buf[256];
	va_list args;

	if (!fmt)
		return;
	va_start(args, fmt);
	vscnprintf(buf, sizeof(buf), fmt, args);
	va_end(args);
	kunit_log(test, "    %s", buf);
}
EXPORT_SYMBOL_GPL(__kunit_msg_print);

void kunit_set_failure(struct kunit *test)
{
	test->status = KUNIT_FAILURE;
}
EXPORT_SYMBOL_GPL(kunit_set_failure);

void __noreturn kunit_abort(struct kunit *test)
{
	__builtin_longjmp(test->abort_buf, 1);
}
EXPORT_SYMBOL_GPL(kunit_abort);

void kunit_mark_skipped_fmt(struct kunit *test, const char *fmt, ...)
{
	va_list args;

	if (test->status == KUNIT_SUCCESS)
		test->status = KUNIT_SKIPPED;
	va_start(args, fmt);
	vscnprintf(test->status_comment, sizeof(test->status_comment), fmt, args);
	va_end(args);
}
EXPORT_SYMBOL_GPL(kunit_mark_skipped_fmt);

static void kunit_fail_header(struct kunit *test, const char *file, int line,
			      bool assert)
{
	kunit_set_failure(test);
	test->failures++;
	kunit_log(test, "%s: %s FAILED at %s:%d", test->name,
		  assert ? "ASSERTION" : "EXPECTATION", file, line);
}

void kunit_fail_int(struct kunit *test, const char *file, int line,
		    bool assert, const char *op, const char *ltext,
		    const char *rtext, long long lval, long long rval,
		    bool is_unsigned)
{
	const char *fmt = is_unsigned ? "    %s == %llu (%#llx)" :
					"    %s == %lld (%#llx)";

	kunit_fail_header(test, file, line, assert);
	kunit_log(test, "Expected %s %s %s, but", ltext, op, rtext);
	kunit_log(test, fmt, ltext, lval, lval);
	kunit_log(test, fmt, rtext, rval, rval);
}
EXPORT_SYMBOL_GPL(kunit_fail_int);

void kunit_fail_ptr(struct kunit *test, const char *file, int line,
		    bool assert, const char *op, const char *ltext,
		    const char *rtext, const void *lval, const void *rval)
{
	kunit_fail_header(test, file, line, assert);
	kunit_log(test, "Expected %s %s %s, but", ltext, op, rtext);
	kunit_log(test, "    %s == %p", ltext, lval);
	kunit_log(test, "    %s == %p", rtext, rval);
}
EXPORT_SYMBOL_GPL(kunit_fail_ptr);

void kunit_fail_str(struct kunit *test, const char *file, int line,
		    bool assert, const char *op, const char *ltext,
		    const char *rtext, const char *lval, const char *rval)
{
	kunit_fail_header(test, file, line, assert);
	kunit_log(test, "Expected %s %s %s, but", ltext, op, rtext);
	kunit_log(test, "    %s == \"%s\"", ltext, lval);
	kunit_log(test, "    %s == \"%s\"", rtext, rval);
}
EXPORT_SYMBOL_GPL(kunit_fail_str);

void kunit_fail_mem(struct kunit *test, const char *file, int line,
		    bool assert, const char *op, const char *ltext,
		    const char *rtext, const void *lval, const void *rval,
		    size_t size)
{
	int n = min_t(size_t, size, 32);

	kunit_fail_header(test, file, line, assert);
	kunit_log(test, "Expected %s %s %s (%zu bytes), but", ltext, op, rtext,
		  size);
	if (!lval || !rval) {
		kunit_log(test, "    %s == %p, %s == %p", ltext, lval, rtext, rval);
		return;
	}
	kunit_log(test, "    %s == %*ph%s", ltext, n, lval, size > 32 ? " ..." : "");
	kunit_log(test, "    %s == %*ph%s", rtext, n, rval, size > 32 ? " ..." : "");
}
EXPORT_SYMBOL_GPL(kunit_fail_mem);

void kunit_fail_msg(struct kunit *test, const char *file, int line,
		    bool assert, const char *fmt, ...)
{
	char buf[256];
	va_list args;

	va_start(args, fmt);
	vscnprintf(buf, sizeof(buf), fmt, args);
	va_end(args);
	kunit_fail_header(test, file, line, assert);
	kunit_log(test, "%s", buf);
}
EXPORT_SYMBOL_GPL(kunit_fail_msg);

void *kunit_kmalloc(struct kunit *test, size_t size, unsigned int gfp)
{
	struct kunit_resource_node *n;

	/* Keep the allocation 16-byte aligned behind its list node. */
	n = kmalloc(size + 16, gfp);
	if (!n)
		return NULL;
	n->next = test->resources;
	test->resources = n;
	return (char *)n + 16;
}
EXPORT_SYMBOL_GPL(kunit_kmalloc);

void *kunit_kzalloc(struct kunit *test, size_t size, unsigned int gfp)
{
	return kunit_kmalloc(test, size, gfp | __GFP_ZERO);
}
EXPORT_SYMBOL_GPL(kunit_kzalloc);

void kunit_kfree(struct kunit *test, const void *ptr)
{
	struct kunit_resource_node **p;

	for (p = &test->resources; *p; p = &(*p)->next) {
		if ((char *)*p + 16 == ptr) {
			struct kunit_resource_node *n = *p;

			*p = n->next;
			kfree(n);
			return;
		}
	}
	WARN(1, "kunit_kfree: %p was not allocated by kunit_kmalloc\n", ptr);
}
EXPORT_SYMBOL_GPL(kunit_kfree);

static void kunit_free_resources(struct kunit *test)
{
	while (test->resources) {
		struct kunit_resource_node *n = test->resources;

		test->resources = n->next;
		kfree(n);
	}
}

/* Runs fn(test); false if it ended through kunit_abort(). */
bool __kunit_try_run(struct kunit *test, void (*fn)(struct kunit *test))
{
	if (__builtin_setjmp(test->abort_buf))
		return false;
	fn(test);
	return true;
}

/*
 * One item of a filter list, [g, g + len): SUITE_GLOB[.CASE_GLOB], matched
 * where it is, whatever its length (no copy to cut). Without a case name
 * (is the suite selected?) an item's suite part decides, unless the item
 * excludes (exclude): an excluding item with a case part excludes cases,
 * never a whole suite.
 */
static bool kunit_item_match(const char *g, size_t len, const char *suite,
			     const char *name, bool exclude)
{
	const char *dot = NULL;
	size_t slen;

	for (slen = 0; slen < len; slen++) {
		if (g[slen] == '.') {
			dot = g + slen;
			break;
		}
	}

	if (!glob_match_len(g, slen, suite))
		return false;
	if (!dot)
		return true;
	if (!name)
		return !exclude;
	return glob_match_len(dot + 1, len - slen - 1, name);
}

/*
 * glob is a comma-separated list of items; an item starting with '-'
 * excludes what it matches. A case is selected when no excluding item
 * matches it and some other item does (or there is none: "-a,-b" is all
 * but a and b). No glob selects all; an empty one, like any glob, only
 * its matches.
 */
bool kunit_filter_match(const char *glob, const char *suite, const char *name)
{
	bool include = false, selected = false;
	const char *item, *end;

	if (!glob)
		return true;
	for (item = glob;; item = end + 1) {
		for (end = item; *end && *end != ','; end++)
			;
		if (*item == '-' && end - item > 1) {
			if (kunit_item_match(item + 1, end - item - 1, suite,
					     name, true))
				return false;
		} else {
			include = true;
			selected = selected ||
				   kunit_item_match(item, end - item, suite,
						    name, false);
		}
		if (!*end)
			break;
	}
	return !include || selected;
}

static const char *const kunit_speed_names[] = {
	[KUNIT_SPEED_VERY_SLOW] = "very_slow",
	[KUNIT_SPEED_SLOW] = "slow",
	[KUNIT_SPEED_NORMAL] = "normal",
};

static int kunit_parse_speed(const char *text)
{
	int i;

	for (i = KUNIT_SPEED_VERY_SLOW; i <= KUNIT_SPEED_NORMAL; i++)
		if (!strcmp(text, kunit_speed_names[i]))
			return i;
	return -EINVAL;
}

int kunit_attr_match(const char *filter, const struct kunit_case *c)
{
	int speed = c->attr.speed ? c->attr.speed : KUNIT_SPEED_NORMAL;
	const char *op, *value;
	int want, d;

	if (!filter || !*filter)
		return 1;
	if (strncmp(filter, "speed", 5))
		return -EINVAL;
	op = filter + 5;
	for (value = op; *value && strchr("=!<>", *value); value++)
		;
	want = kunit_parse_speed(value);
	if (want < 0)
		return -EINVAL;
	d = speed - want;
	switch (value - op) {
	case 1:
		return *op == '>' ? d > 0 : *op == '<' ? d < 0 :
		       *op == '=' ? d == 0 : -EINVAL;
	case 2:
		return !strncmp(op, "!=", 2) ? d != 0 :
		       !strncmp(op, ">=", 2) ? d >= 0 :
		       !strncmp(op, "<=", 2) ? d <= 0 : -EINVAL;
	default:
		return -EINVAL;
	}
}

/* Selected by both filters; an unparsable attribute filter selects none. */
static bool kunit_case_selected(struct kunit_suite *suite, struct kunit_case *c)
{
	return kunit_filter_match(filter_glob, suite->name, c->name) &&
	       kunit_attr_match(filter_attr, c) == 1;
}

static void kunit_print_result(int indent, bool ok, int nr, const char *name,
			       bool skipped, const char *why)
{
	printk("%s%s %d %s%s%s\n", indent ? SUITE_INDENT : "",
	       ok ? "ok" : "not ok", nr, name, skipped ? " # SKIP " : "",
	       skipped ? why : "");
}

/*
 * One case in its own kthread, as Linux's KUnit runs it: init, the case,
 * exit. The kthread has PF_OOPS_EXITS, so an oops in it (a page fault, a
 * BUG, a divide error) ends the thread, not the kernel; the runner sees
 * the thread end without finishing and fails the case (the suite's exit
 * is not run then: what the case left may not be safe to touch).
 */
struct kunit_try {
	struct kunit test;
	struct kunit_suite *suite;
	struct kunit_case *c;
	struct completion done; /* the thread ended, whichever way */
	bool finished; /* it ran to the end: no oops */
	bool timed_out; /* the runner gave up: the thread owns this */
};

/* init(test) with an abort point: false if kunit_skip() or an ASSERT ended it. */
static noinline bool kunit_try_init(struct kunit *test,
				    int (*init)(struct kunit *), int *ret)
{
	if (__builtin_setjmp(test->abort_buf))
		return false;
	*ret = init(test);
	return true;
}

static int kunit_case_thread(void *data)
{
	struct kunit_try *k = data;
	struct kunit *test = &k->test;
	int ret = 0;

	if (k->suite->init && !kunit_try_init(test, k->suite->init, &ret)) {
		/* skipped or failed in init: the case and exit do not run */
	} else if (ret) {
		kunit_log(test, "%s: initialization failed (%d)", test->name, ret);
		kunit_set_failure(test);
	} else {
		__kunit_try_run(test, k->c->run_case);
		if (k->suite->exit)
			k->suite->exit(test);
	}
	WRITE_ONCE(k->finished, true);
	return 0;
}

/* Waits for the case thread: false if kunit.timeout seconds passed. */
static bool kunit_wait_case(struct kunit_try *k)
{
	if (!kunit_timeout_s || !tick_enabled()) {
		wait_for_completion(&k->done);
		return true;
	}
	return wait_for_completion_timeout(&k->done,
					   kunit_timeout_s * (unsigned long)HZ);
}

/*
 * Runs the case in a thread on this CPU and waits for it. A thread that
 * times out is left running with its memory (it may still use it).
 */
static enum kunit_status kunit_run_case_thread(struct kunit_try *k)
{
	struct kunit *test = &k->test;
	struct task_struct *t;

	t = kthread_create_on_cpu(kunit_case_thread, k, smp_processor_id(),
				  "kunit_try_catch");
	if (IS_ERR(t)) {
		kunit_log(test, "%s: cannot start its thread (%ld)", test->name,
			  PTR_ERR(t));
		kunit_set_failure(test);
		return test->status;
	}
	t->flags |= PF_OOPS_EXITS;
	t->exit_done = &k->done;
	wake_up_process(t);
	if (!kunit_wait_case(k)) {
		kunit_log(test, "%s: timed out after %u s (kunit.timeout); its thread is left running",
			  test->name, kunit_timeout_s);
		kunit_set_failure(test);
		k->timed_out = true;
		return test->status;
	}
	/*
	 * It ended: no kthread_stop(). Its stack is freed now rather than by
	 * an idle task later, in the middle of a case that counts frames.
	 */
	task_release_stack(t);
	put_task_struct(t);
	if (!READ_ONCE(k->finished)) {
		kunit_log(test, "%s: the case crashed (the oops is above)",
			  test->name);
		kunit_set_failure(test);
	}
	kunit_free_resources(test);
	return test->status;
}

static enum kunit_status kunit_run_case(struct kunit_suite *suite,
					struct kunit_case *c, int nr)
{
	struct kunit_try *k = kzalloc(sizeof(*k), GFP_KERNEL);
	enum kunit_status status = KUNIT_FAILURE;

	if (!k) {
		printk(SUITE_INDENT "# %s: out of memory\n", c->name);
	} else {
		k->test.name = c->name;
		k->test.status = KUNIT_SUCCESS;
		k->suite = suite;
		k->c = c;
		init_completion(&k->done);
		status = kunit_run_case_thread(k);
	}
	c->status = status;
	kunit_print_result(1, status != KUNIT_FAILURE, nr, c->name,
			   status == KUNIT_SKIPPED, k ? k->test.status_comment : "");
	if (k && !k->timed_out)
		kfree(k);
	return status;
}

static int kunit_count_cases(struct kunit_suite *suite)
{
	struct kunit_case *c;
	int n = 0;

	for (c = suite->test_cases; c->run_case; c++)
		n += kunit_case_selected(suite, c);
	return n;
}

/* Whether the filters select a case of suite. */
bool kunit_suite_selected(struct kunit_suite *suite)
{
	return kunit_filter_match(filter_glob, suite->name, NULL) &&
	       kunit_count_cases(suite);
}

/* Runs one suite as subtest nr; returns its number of failed cases. */
int kunit_run_suite(struct kunit_suite *suite, int nr)
{
	int pass = 0, fail = 0, skip = 0, i = 0;
	struct kunit_case *c;

	printk(SUITE_INDENT "KTAP version 1\n");
	printk(SUITE_INDENT "# Subtest: %s\n", suite->name);
	if (suite->module)
		printk(SUITE_INDENT "# module: %s\n", suite->module);
	printk(SUITE_INDENT "1..%d\n", kunit_count_cases(suite));
	if (suite->suite_init && suite->suite_init(suite)) {
		printk(SUITE_INDENT "# %s: suite initialization failed\n",
		       suite->name);
		suite->status = KUNIT_FAILURE;
	}
	for (c = suite->test_cases; c->run_case; c++) {
		if (!kunit_case_selected(suite, c))
			continue;
		if (suite->status == KUNIT_FAILURE) {
			kunit_print_result(1, false, ++i, c->name, false, "");
			fail++;
			continue;
		}
		switch (kunit_run_case(suite, c, ++i)) {
		case KUNIT_SUCCESS: pass++; break;
		case KUNIT_FAILURE: fail++; break;
		case KUNIT_SKIPPED: skip++; break;
		}
	}
	if (suite->suite_exit && suite->status != KUNIT_FAILURE)
		suite->suite_exit(suite);
	printk(SUITE_INDENT "# %s: pass:%d fail:%d skip:%d total:%d\n",
	       suite->name, pass, fail, skip, i);
	kunit_print_result(0, !fail, nr, suite->name, !fail && !pass, "");
	return fail;
}

/* The filters selected nothing: a run of no test must not pass. */
static int kunit_report_none(void)
{
	if (filter_glob || filter_attr)
		pr_err("kunit: no test matches kunit.filter_glob=%s kunit.filter=%s: nothing ran\n",
		       filter_glob ? filter_glob : "", filter_attr ? filter_attr : "");
	else
		pr_err("kunit: no test is built in: nothing ran\n");
	return -ENOENT;
}

/* A run of the console's test command (kunit_run_glob()). */
static bool kunit_console_run;

int kunit_run_all_tests(void)
{
	struct kunit_suite *const *s;
	int nr = 0, failed = 0;

	if (filter_attr && kunit_attr_match(filter_attr, &(struct kunit_case){}) < 0)
		pr_err("kunit: kunit.filter=%s: expected speed<op><value>, op one of = != < <= > >=, value very_slow, slow or normal: no case runs\n",
		       filter_attr);
	struct kunit_modules mods;

	for (s = __kunit_suites_start; s < __kunit_suites_end; s++)
		nr += kunit_suite_selected(*s);
	nr += kunit_modules_count(&mods);
	if (!nr) {
		kfree(mods.bad);
		if (mods.failed)
			return mods.failed;
		/* The console says it in one line of its own. */
		if (kunit_console_run)
			return -ENOENT;
	}
	printk("KTAP version 1\n1..%d\n", nr);
	if (!nr)
		return kunit_report_none();
	nr = 0;
	static_branch_enable(&kunit_running);
	for (s = __kunit_suites_start; s < __kunit_suites_end; s++) {
		if (!kunit_suite_selected(*s))
			continue;
		failed += kunit_run_suite(*s, ++nr);
	}
	failed += kunit_modules_run(&mods, &nr);
	static_branch_disable(&kunit_running);
	return failed;
}

/*
 * The console's test command: the filters are swapped for glob (and no
 * attribute filter) for one run. Runs never overlap: one console thread.
 */
int kunit_run_glob(const char *glob)
{
	char *saved_glob = filter_glob, *saved_attr = filter_attr;
	int ret;

	filter_glob = (char *)glob;
	filter_attr = NULL;
	kunit_console_run = true;
	ret = kunit_run_all_tests();
	kunit_console_run = false;
	filter_glob = saved_glob;
	filter_attr = saved_attr;
	return ret;
}

bool kunit_wait_for(bool (*cond)(void *arg), void *arg, unsigned int ms)
{
	u64 end = ktime_get_ns() + (u64)ms * 1000000;
	bool ok;

	while (!(ok = cond(arg)) && ktime_get_ns() < end)
		yield();
	return ok;
}
EXPORT_SYMBOL_GPL(kunit_wait_for);

struct kunit_int_eq {
	int *v;
	int want;
};

static bool kunit_int_eq(void *arg)
{
	struct kunit_int_eq *e = arg;

	return READ_ONCE(*e->v) == e->want;
}

bool kunit_wait_eq(int *v, int want, unsigned int ms)
{
	struct kunit_int_eq e = { v, want };

	return kunit_wait_for(kunit_int_eq, &e, ms);
}
EXPORT_SYMBOL_GPL(kunit_wait_eq);
