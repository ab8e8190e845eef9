// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suites of the tracer.
 *
 * "trace_events": enabling an event by name flips its tracepoint's key and
 * patches exactly its sites; names, systems and globs; the line format;
 * the record layout; lost records announced; the kernel's own events
 * (sched, timer, workqueue, irq) recorded where they happen; a table of
 * events outside the image.
 *
 * "trace_boot": the state the command line asked for (trace_event=,
 * schedstats=), and that every event trace_event= lists came on in one
 * batch of three sync rounds: tests/plan.json boots it with and without
 * them.
 */
#include <linux/kernel.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/moduleparam.h>
#include <linux/shell.h>
#include <linux/smp.h>
#include <linux/text-patching.h>
#include <linux/timekeeping.h>
#include <linux/timer.h>
#include <linux/static_call.h>
#include <linux/trace.h>
#include <linux/workqueue.h>
#include <fixtures/shell_capture.h>
#include <fixtures/static_key_sites.h>
#include <kunit/test.h>
#ifdef CONFIG_JUMP_LABEL
#endif

#define CREATE_TRACE_POINTS
#include "trace_test_events.h"

#define TET_LINE 512

/* Two sites of trace_test_one; one of trace_test_event. */
static noinline void tet_fire_one_a(int v)
{
	trace_trace_test_one(v);
}

static noinline void tet_fire_one_b(int v)
{
	trace_trace_test_one(v + 1000);
}

static noinline void tet_fire_event(int a, const char *s,
				    unsigned long long big)
{
	trace_trace_test_event(a, s, big);
}

static void tet_exit(struct kunit *test)
{
	trace_set_clr_event("trace_test", NULL, 0);
	tracepoint_synchronize_unregister();
	trace_clear();
}

/* Reads lines until one contains s: true if found (it is left in line). */
static bool tet_find_line(char *line, const char *s)
{
	while (trace_read_line(line, TET_LINE))
		if (strstr(line, s))
			return true;
	return false;
}

/* Every tracepoint's key state, in for_each_tracepoint() order. */
struct tet_keys {
	unsigned int n;
	bool on[256];
};

static void tet_key_state(struct tracepoint *tp, void *priv)
{
	struct tet_keys *k = priv;

	if (k->n < ARRAY_SIZE(k->on))
		k->on[k->n] = static_key_enabled(&tp->key);
	k->n++;
}

#ifdef CONFIG_JUMP_LABEL
static unsigned long tet_sites_patched(void)
{
	return text_poke_get_stats().sites;
}

static unsigned int tet_sites_of(struct tracepoint *tp)
{
	return static_key_test_entries(&tp->key.key);
}

static void tet_expect_site_bytes(struct kunit *test, struct tracepoint *tp,
				  bool enabled)
{
	KUNIT_EXPECT_EQ(test,
			static_key_test_wrong_sites(&tp->key.key, enabled), 0);
}
#else /* no patching: no sites, nothing patched */
static unsigned long tet_sites_patched(void)
{
	return 0;
}

static unsigned int tet_sites_of(struct tracepoint *tp)
{
	return 0;
}

static void tet_expect_site_bytes(struct kunit *test, struct tracepoint *tp,
				  bool enabled)
{
}
#endif

/* Which keys differ between a and b: their number; *which the last. */
static unsigned int tet_keys_changed(const struct tet_keys *a,
				     const struct tet_keys *b)
{
	unsigned int i, n = 0;

	for (i = 0; i < min(a->n, (unsigned int)ARRAY_SIZE(a->on)); i++)
		n += a->on[i] != b->on[i];
	return n + (a->n != b->n);
}

/*
 * Sites of tp's static call (its trampoline included), retargeted from
 * the iterator to the event's one probe and back.
 */
static unsigned int tet_call_sites_of(struct tracepoint *tp)
{
	/* tet_sites_patched() counts nothing without JUMP_LABEL. */
	return IS_ENABLED(CONFIG_STATIC_CALL) && IS_ENABLED(CONFIG_JUMP_LABEL) ?
		       static_call_nr_sites(tp->static_call_key) : 0;
}

/*
 * Enabling spec changes tp's key alone and patches tp's sites alone: its
 * key's and its static call's.
 */
static void tet_expect_flip(struct kunit *test, const char *spec,
			    struct tracepoint *tp, bool enable)
{
	struct tet_keys *before =
		kunit_kzalloc(test, sizeof(*before), GFP_KERNEL);
	struct tet_keys *after =
		kunit_kzalloc(test, sizeof(*after), GFP_KERNEL);
	unsigned long sites;

	KUNIT_ASSERT_NOT_NULL(test, before);
	KUNIT_ASSERT_NOT_NULL(test, after);
	for_each_tracepoint(tet_key_state, before);
	sites = tet_sites_patched();
	KUNIT_EXPECT_EQ(test, trace_set_event(spec, enable), 0);
	KUNIT_EXPECT_EQ(test, tet_sites_patched() - sites,
			tet_sites_of(tp) + tet_call_sites_of(tp));
	for_each_tracepoint(tet_key_state, after);
	KUNIT_EXPECT_EQ(test, tet_keys_changed(before, after), 1);
	KUNIT_EXPECT_EQ(test, static_key_enabled(&tp->key), enable);
	tet_expect_site_bytes(test, tp, enable);
}

static void tet_test_enable_patches_its_sites(struct kunit *test)
{
	struct tracepoint *sw = tracepoint_find("sched_switch");
	char *line = kunit_kzalloc(test, TET_LINE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, sw);
	KUNIT_ASSERT_NOT_NULL(test, line);
	if (IS_ENABLED(CONFIG_JUMP_LABEL))
		KUNIT_EXPECT_EQ(test,
				tet_sites_of(&__tracepoint_trace_test_one), 2);
	tet_expect_flip(test, "trace_test:trace_test_one",
			&__tracepoint_trace_test_one, true);
	KUNIT_EXPECT_TRUE(test, trace_event_is_enabled("trace_test",
						       "trace_test_one"));
	KUNIT_EXPECT_FALSE(test, trace_event_is_enabled("trace_test",
							"trace_test_two"));
	/* Both sites record. */
	trace_clear();
	tet_fire_one_a(1);
	tet_fire_one_b(1);
	KUNIT_EXPECT_TRUE(test, tet_find_line(line, ": trace_test_one: v=1\n"));
	KUNIT_EXPECT_TRUE(test,
			  tet_find_line(line, ": trace_test_one: v=1001\n"));
	tet_expect_flip(test, "trace_test:trace_test_one",
			&__tracepoint_trace_test_one, false);
	/* A kernel event: its sites in the scheduler, nothing else. */
	tet_expect_flip(test, "sched:sched_switch", sw, true);
	tet_expect_flip(test, "sched_switch", sw, false);
	tracepoint_synchronize_unregister();
}

static void tet_test_names(struct kunit *test)
{
	struct trace_event_call *call;

	KUNIT_EXPECT_EQ(test, trace_set_event("no_such_event", true), -EINVAL);
	KUNIT_EXPECT_EQ(test, trace_set_event("trace_test:no_such", true),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, trace_set_event("trace_test_*o*", true), 0);
	KUNIT_EXPECT_TRUE(test, trace_event_is_enabled(NULL, "trace_test_one"));
	KUNIT_EXPECT_TRUE(test, trace_event_is_enabled(NULL, "trace_test_two"));
	KUNIT_EXPECT_FALSE(test,
			   trace_event_is_enabled(NULL, "trace_test_event"));
	/* A bare word naming a system: all its events. */
	KUNIT_EXPECT_EQ(test, trace_set_event("trace_test", true), 0);
	KUNIT_EXPECT_TRUE(test,
			  trace_event_is_enabled(NULL, "trace_test_event"));
	KUNIT_EXPECT_EQ(test, trace_set_event("trace_test:*", false), 0);
	KUNIT_EXPECT_FALSE(test,
			   trace_event_is_enabled(NULL, "trace_test_one"));
	/* A list: applies what it can, reports the first failure. */
	KUNIT_EXPECT_EQ(test, trace_set_event_list("nope,trace_test_two", true),
			-EINVAL);
	KUNIT_EXPECT_TRUE(test, trace_event_is_enabled(NULL, "trace_test_two"));
	KUNIT_EXPECT_EQ(test,
			trace_set_clr_event("trace_test", "trace_test_two", 0),
			0);
	KUNIT_EXPECT_FALSE(test,
			   trace_event_is_enabled(NULL, "trace_test_two"));
	call = trace_event_find(NULL, "sched_wakeup");
	KUNIT_ASSERT_NOT_NULL(test, call);
	KUNIT_EXPECT_STREQ(test, call->class->system, "sched");
	KUNIT_EXPECT_PTR_EQ(test, call->tp, tracepoint_find("sched_wakeup"));
	KUNIT_EXPECT_NULL(test, trace_event_find("timer", "sched_wakeup"));
	tracepoint_synchronize_unregister();
}

/* "<comm>-<pid> [cpu] flags secs.micros: event: fields". */
/* The timestamp column at p ("  secs.micros"): ns; p moves past it. */
static u64 tet_parse_ts(char **p)
{
	unsigned long secs, usecs;

	while (**p == ' ')
		(*p)++;
	secs = simple_strtoul(*p, p, 10);
	if (**p != '.')
		return 0;
	usecs = simple_strtoul(*p + 1, p, 10);
	return secs * 1000000000ULL + usecs * 1000;
}

static void tet_test_line_format(struct kunit *test)
{
	char *line = kunit_kzalloc(test, TET_LINE, GFP_KERNEL);
	char prefix[64], *p;
	u64 t0, t1, ts;

	KUNIT_ASSERT_NOT_NULL(test, line);
	KUNIT_ASSERT_EQ(test, trace_set_event("trace_test_event", true), 0);
	trace_clear();
	t0 = ktime_get_ns();
	tet_fire_event(5, "abc", 1ULL << 40);
	t1 = ktime_get_ns();
	KUNIT_ASSERT_TRUE(test, tet_find_line(line, "trace_test_event:"));
	snprintf(prefix, sizeof(prefix), "%16s-%-7d [%03u] ", current->comm,
		 current->pid, smp_processor_id());
	KUNIT_EXPECT_EQ(test, strncmp(line, prefix, strlen(prefix)), 0);
	p = line + strlen(prefix);
	/* Interrupts on, preemption on; 'N' may come and go. */
	KUNIT_EXPECT_TRUE(test,
			  !strncmp(p, "..... ", 6) || !strncmp(p, ".N... ", 6));
	p += 6;
	ts = tet_parse_ts(&p);
	KUNIT_EXPECT_GE(test, ts + 1000, t0);
	KUNIT_EXPECT_LE(test, ts, t1);
	KUNIT_EXPECT_STREQ(test, p,
			   ": trace_test_event: a=5 s=abc big=1099511627776\n");
	/* Interrupts and preemption off: 'd' and a depth of 1. */
	local_irq_disable();
	preempt_disable();
	tet_fire_event(6, "toolongstring", 0);
	preempt_enable_no_resched();
	local_irq_enable();
	KUNIT_ASSERT_TRUE(test, tet_find_line(line, "trace_test_event:"));
	p = line + strlen(prefix);
	KUNIT_EXPECT_EQ(test, p[0], 'd');
	KUNIT_EXPECT_EQ(test, p[3], '1');
	KUNIT_EXPECT_TRUE(test, strstr(line, "a=6 s=toolong big=0\n") != NULL);
}

/* The format file, against the compiler's own layout of the record. */
static void tet_test_format(struct kunit *test)
{
	struct trace_event_call *call =
		trace_event_find("trace_test", "trace_test_event");
	char *buf = kunit_kzalloc(test, 1024, GFP_KERNEL), want[96];
	int n;

	KUNIT_ASSERT_NOT_NULL(test, call);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	n = trace_event_format(call, buf, 1024);
	KUNIT_EXPECT_LT(test, n, 1024);
	snprintf(want, sizeof(want),
		 "name: trace_test_event\nID: %u\nformat:\n", call->type);
	KUNIT_EXPECT_EQ(test, strncmp(buf, want, strlen(want)), 0);
	KUNIT_EXPECT_TRUE(
		test,
		strstr(buf,
		       "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"));
	snprintf(want, sizeof(want),
		 "\tfield:int a;\toffset:%zu;\tsize:4;\tsigned:1;\n",
		 offsetof(struct trace_event_raw_trace_test_event, a));
	KUNIT_EXPECT_TRUE(test, strstr(buf, want) != NULL);
	snprintf(want, sizeof(want),
		 "\tfield:char s[8];\toffset:%zu;\tsize:8;\tsigned:1;\n",
		 offsetof(struct trace_event_raw_trace_test_event, s));
	KUNIT_EXPECT_TRUE(test, strstr(buf, want) != NULL);
	snprintf(
		want, sizeof(want),
		"\tfield:unsigned long long big;\toffset:%zu;\tsize:8;\tsigned:0;\n",
		offsetof(struct trace_event_raw_trace_test_event, big));
	KUNIT_EXPECT_TRUE(test, strstr(buf, want) != NULL);
	KUNIT_EXPECT_TRUE(
		test,
		strstr(buf,
		       "\nprint fmt: \"a=%d s=%s big=%llu\", __entry->a") !=
			NULL);
	KUNIT_EXPECT_EQ(test, call->class->size,
			sizeof(struct trace_event_raw_trace_test_event));
}

/* More records than the ring holds: the reader is told what it lost. */
static void tet_test_lost_events(struct kunit *test)
{
	char *line = kunit_kzalloc(test, TET_LINE, GFP_KERNEL), want[48];
	unsigned int cpu = smp_processor_id(), i, lines = 0;
	struct ring_buffer_cpu_stats before, after;
	unsigned long lost = 0, last = 0;
	char *v;

	KUNIT_ASSERT_NOT_NULL(test, line);
	KUNIT_ASSERT_EQ(test, trace_set_event("trace_test_one", true), 0);
	trace_clear();
	trace_cpu_stats(cpu, &before);
	for (i = 0; i < 20000; i++)
		tet_fire_one_a(i);
	trace_cpu_stats(cpu, &after);
	KUNIT_EXPECT_GT(test, after.overrun, before.overrun);
	snprintf(want, sizeof(want), "CPU:%u [LOST ", cpu);
	while (trace_read_line(line, TET_LINE)) {
		if (!strncmp(line, want, strlen(want))) {
			lost += simple_strtoul(line + strlen(want), NULL, 10);
		} else if ((v = strstr(line, "trace_test_one: v="))) {
			last = simple_strtoul(v + 18, NULL, 10);
			lines++;
		}
	}
	KUNIT_EXPECT_EQ(test, lost, after.overrun - before.overrun);
	KUNIT_EXPECT_EQ(test, lines + lost, 20000);
	KUNIT_EXPECT_EQ(test, last, 19999); /* the newest survived */
	kunit_info(test, "20000 records: %u read, %lu lost", lines, lost);
}

/* The kernel's own events, each where it happens. */
struct tet_kernel {
	struct timer_list timer;
	struct work_struct work;
	int timer_ran, work_ran, ipi_ran;
};

static void tet_timer_fn(struct timer_list *t)
{
	WRITE_ONCE(container_of(t, struct tet_kernel, timer)->timer_ran, 1);
}

static void tet_work_fn(struct work_struct *w)
{
	WRITE_ONCE(container_of(w, struct tet_kernel, work)->work_ran, 1);
}

static void tet_ipi_fn(void *data)
{
	WRITE_ONCE(((struct tet_kernel *)data)->ipi_ran, 1);
}

static int tet_sleeper_fn(void *data)
{
	msleep(2); /* a sleep and a wake-up, under its own name */
	kthread_wait_stop();
	return 0;
}

static void tet_kernel_activity(struct kunit *test, struct tet_kernel *k)
{
	struct task_struct *t;
	unsigned int cpu;

	timer_setup(&k->timer, tet_timer_fn, 0);
	mod_timer(&k->timer, jiffies + 1);
	INIT_WORK(&k->work, tet_work_fn);
	schedule_work(&k->work);
	flush_work(&k->work);
	t = kthread_run_on_cpu(tet_sleeper_fn, NULL, smp_processor_id(),
			       "tet_sleeper");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	msleep(10);
	kthread_stop(t);
	for_each_online_cpu(cpu)
		if (cpu != smp_processor_id()) {
			smp_call_function_single(cpu, tet_ipi_fn, k, 1);
			break;
		}
	del_timer_sync(&k->timer);
}

static const char *const tet_kernel_lines[] = {
	"sched_waking: comm=tet_sleeper",
	"sched_wakeup: comm=tet_sleeper",
	"==> next_comm=tet_sleeper",
	"prev_comm=tet_sleeper",
	"timer_expire_entry: timer=",
	"function=tet_timer_fn",
	"timer_expire_exit: timer=",
	"function tet_work_fn",
	"workqueue_execute_end: work struct",
	"irq_handler_entry: irq=",
	"irq_handler_exit: irq=",
};

/* Reads every line: each of tet_kernel_lines must be in one. */
static bool tet_read_kernel_lines(struct kunit *test, char *line)
{
	bool found[ARRAY_SIZE(tet_kernel_lines)] = { false }, ipi = false;
	unsigned int i;

	while (trace_read_line(line, TET_LINE)) {
		for (i = 0; i < ARRAY_SIZE(tet_kernel_lines); i++)
			found[i] |= strstr(line, tet_kernel_lines[i]) != NULL;
		ipi |= strstr(line, "handler=call_function_interrupt") != NULL;
	}
	for (i = 0; i < ARRAY_SIZE(tet_kernel_lines); i++)
		KUNIT_EXPECT_TRUE_MSG(test, found[i], "no line with \"%s\"",
				      tet_kernel_lines[i]);
	return ipi;
}

static void tet_test_kernel_events(struct kunit *test)
{
	struct tet_kernel *k = kunit_kzalloc(test, sizeof(*k), GFP_KERNEL);
	char *line = kunit_kzalloc(test, TET_LINE, GFP_KERNEL);
	bool ipi;

	KUNIT_ASSERT_NOT_NULL(test, k);
	KUNIT_ASSERT_NOT_NULL(test, line);
	KUNIT_ASSERT_EQ(
		test,
		trace_set_event_list("sched:*,timer:*,workqueue:*,irq:*", true),
		0);
	trace_clear();
	tet_kernel_activity(test, k);
	KUNIT_EXPECT_EQ(
		test, trace_set_event_list("sched,timer,workqueue,irq", false),
		0);
	ipi = tet_read_kernel_lines(test, line);
	KUNIT_EXPECT_EQ(test, k->timer_ran + k->work_ran, 2);
	/* The cross call reached another CPU as an IPI, recorded there. */
	if (num_online_cpus() > 1) {
		KUNIT_EXPECT_EQ(test, k->ipi_ran, 1);
		KUNIT_EXPECT_TRUE(test, ipi);
	}
	tracepoint_synchronize_unregister();
}

/* Events outside the image, as a module's will be. */
DECLARE_TRACE(tet_modlike, TP_PROTO(int v), TP_ARGS(v));
__DEFINE_TRACE_BODY(tet_modlike, NULL, NULL, TP_PROTO(int v), TP_ARGS(v))
static struct tracepoint *const tet_mod_tps[] = { &__tracepoint_tet_modlike };
static struct trace_event_call tet_mod_call = {
	.name = "tet_modlike",
	.class = &event_class_trace_test_class,
	.tp = &__tracepoint_tet_modlike,
};
static struct trace_event_call *const tet_mod_calls[] = { &tet_mod_call };

static void tet_test_module_events(struct kunit *test)
{
	struct tracepoint_table tps = { .start = tet_mod_tps, .num = 1 };
	struct trace_event_table events = { .start = tet_mod_calls, .num = 1 };
	char *line = kunit_kzalloc(test, TET_LINE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, line);
	KUNIT_EXPECT_NULL(test, trace_event_find(NULL, "tet_modlike"));
	tracepoint_module_coming(&tps);
	KUNIT_ASSERT_EQ(test, trace_module_add_events(&events), 0);
	KUNIT_EXPECT_GT(
		test, tet_mod_call.type,
		(unsigned int)(__stop_ftrace_events - __start_ftrace_events));
	KUNIT_ASSERT_EQ(test, trace_set_event("trace_test:tet_modlike", true),
			0);
	trace_clear();
	trace_tet_modlike(77);
	KUNIT_EXPECT_TRUE(test, tet_find_line(line, ": tet_modlike: v=77\n"));
	trace_module_remove_events(&events);
	KUNIT_EXPECT_FALSE(test, tet_mod_call.enabled);
	KUNIT_EXPECT_FALSE(test, trace_tet_modlike_enabled());
	KUNIT_EXPECT_NULL(test, trace_event_find(NULL, "tet_modlike"));
	tracepoint_module_going(&tps);
}

/*
 * The console's trace while events keep coming: each line it prints
 * fires two more (the sink below), faster than it prints. It must print
 * the records there were when it started, and stop.
 */
static unsigned int tet_sink_lines, tet_sink_fired;
static bool tet_sink_summary;

static void tet_sink(const char *s, size_t len)
{
	if (strstr(s, "trace: ") == s)
		tet_sink_summary = true;
	if (!strstr(s, "trace_test_one"))
		return;
	tet_sink_lines++;
	/* Bounded, so that a reader that does not stop still ends. */
	if (tet_sink_fired < 20000) {
		tet_fire_one_a(2);
		tet_fire_one_a(3);
		tet_sink_fired += 2;
	}
}

static void tet_test_console_trace_ends(struct kunit *test)
{
	unsigned int i;

	trace_clear();
	KUNIT_ASSERT_EQ(test, trace_set_event("trace_test:trace_test_one", true),
			0);
	for (i = 0; i < 100; i++)
		tet_fire_one_a(1);
	tet_sink_lines = tet_sink_fired = 0;
	tet_sink_summary = false;
	shell_capture_run("trace", tet_sink);
	KUNIT_EXPECT_EQ(test, tet_sink_lines, 100);
	KUNIT_EXPECT_TRUE(test, tet_sink_summary);
	KUNIT_EXPECT_EQ(test, tet_sink_fired, 200);
}

/*
 * tracing_off() stops recording (events stay enabled), tracing_on()
 * resumes it, tracing_is_on() says which; trace_dump() prints what was
 * recorded on the console, as Linux's ftrace_dump() does.
 */
static void tet_test_tracing_off(struct kunit *test)
{
	char *line = kunit_kzalloc(test, TET_LINE, GFP_KERNEL);
	u64 log;

	KUNIT_ASSERT_NOT_NULL(test, line);
	KUNIT_ASSERT_EQ(test, trace_set_event("trace_test_one", true), 0);
	trace_clear();
	KUNIT_EXPECT_TRUE(test, tracing_is_on());
	tracing_off();
	KUNIT_EXPECT_FALSE(test, tracing_is_on());
	tet_fire_one_a(4101);
	tracing_on();
	KUNIT_EXPECT_TRUE(test, tracing_is_on());
	KUNIT_EXPECT_FALSE(test, tet_find_line(line, "v=4101"));
	tet_fire_one_a(4102);
	log = printk_log_end();
	trace_dump();
	KUNIT_EXPECT_TRUE(test, printk_log_contains(log, "# tracer: nop"));
	KUNIT_EXPECT_TRUE(test,
			  printk_log_contains(log, "trace_test_one: v=4102"));
	/* The dump consumed it. */
	KUNIT_EXPECT_FALSE(test, tet_find_line(line, "v=4102"));
}

static struct kunit_case tet_cases[] = {
	KUNIT_CASE(tet_test_enable_patches_its_sites),
	KUNIT_CASE(tet_test_names),
	KUNIT_CASE(tet_test_line_format),
	KUNIT_CASE(tet_test_format),
	KUNIT_CASE(tet_test_lost_events),
	KUNIT_CASE(tet_test_kernel_events),
	KUNIT_CASE(tet_test_module_events),
	KUNIT_CASE(tet_test_console_trace_ends),
	KUNIT_CASE(tet_test_tracing_off),
	{}
};

static struct kunit_suite tet_suite = {
	.name = "trace_events",
	.exit = tet_exit,
	.test_cases = tet_cases,
};

/* trace_boot: what the command line asked for is what is on. */
#define TBT_VALUE_LEN 256

/* The last value the command line gives name, as the parser reads it. */
static int tbt_copy(const char *val, const struct kernel_param *kp)
{
	strscpy(kp->arg, val ? val : "", TBT_VALUE_LEN);
	return 0;
}

static void tbt_param(const char *name, char *val)
{
	struct kernel_param kp = { .name = name, .set = tbt_copy, .arg = val };

	val[0] = '\0';
	parse_args_for(saved_command_line, &kp);
}

/* Does one item of trace_event= (n bytes at spec) name call? */
static bool tbt_spec_matches(const char *spec, size_t n,
			     struct trace_event_call *call)
{
	size_t sys = 0;

	while (sys < n && spec[sys] != ':')
		sys++;
	if (sys == n)
		return glob_match_len(spec, n, call->name) ||
		       glob_match_len(spec, n, call->class->system);
	return (!sys || glob_match_len(spec, sys, call->class->system)) &&
	       (sys + 1 == n ||
		glob_match_len(spec + sys + 1, n - sys - 1, call->name));
}

struct tbt_check {
	const char *list;
	unsigned int listed, wrong;
	bool switch_listed;
};

static void tbt_check_event(struct trace_event_call *call, void *priv)
{
	struct tbt_check *c = priv;
	const char *p = c->list;
	bool listed = false;

	while (*p && !listed) {
		size_t n = 0;

		while (p[n] && p[n] != ',')
			n++;
		listed = n && tbt_spec_matches(p, n, call);
		p += n + (p[n] == ',');
	}
	c->listed += listed;
	c->wrong += listed != call->enabled;
	if (listed && !strcmp(call->name, "sched_switch"))
		c->switch_listed = true;
}

/*
 * Every event trace_event= listed was switched on in one batch: three
 * sync rounds however many (none without patching, or without events).
 */
static void tbt_expect_one_batch(struct kunit *test, unsigned int listed)
{
	bool patching = IS_ENABLED(CONFIG_JUMP_LABEL) ||
			IS_ENABLED(CONFIG_STATIC_CALL);
	unsigned long batches, rounds;

	trace_boot_patch_stats(&batches, &rounds);
	kunit_info(test, "trace_event=: %u events in %lu batches, %lu sync rounds",
		   listed, batches, rounds);
	KUNIT_EXPECT_EQ(test, batches, listed && patching ? 1UL : 0UL);
	KUNIT_EXPECT_EQ(test, rounds, listed && patching ? 3UL : 0UL);
}

static void tbt_test_events_as_asked(struct kunit *test)
{
	char *asked = kunit_kzalloc(test, TBT_VALUE_LEN, GFP_KERNEL);
	char *line = kunit_kzalloc(test, TET_LINE, GFP_KERNEL);
	struct tbt_check c = { 0 };

	KUNIT_ASSERT_NOT_NULL(test, asked);
	KUNIT_ASSERT_NOT_NULL(test, line);
	tbt_param("trace_event", asked);
	KUNIT_EXPECT_STREQ(test, trace_boot_events(), asked);
	c.list = asked;
	for_each_trace_event(tbt_check_event, &c);
	KUNIT_EXPECT_EQ(test, c.wrong, 0);
	kunit_info(test, "trace_event=%s: %u events on", asked, c.listed);
	if (!asked[0])
		KUNIT_EXPECT_EQ(test, c.listed, 0);
	tbt_expect_one_batch(test, c.listed);
	/* Switches happened since boot: their records are there. */
	if (c.switch_listed)
		KUNIT_EXPECT_TRUE(test,
				  tet_find_line(line,
						": sched_switch: prev_comm="));
}

static void tbt_test_schedstats_as_asked(struct kunit *test)
{
	char *asked = kunit_kzalloc(test, TBT_VALUE_LEN, GFP_KERNEL);
	bool want;

	KUNIT_ASSERT_NOT_NULL(test, asked);
	tbt_param("schedstats", asked);
	want = !strcmp(asked, "enable");
	KUNIT_EXPECT_EQ(test, schedstat_enabled(), want);
	/* On since boot: the scheduler has been counting. */
	if (want)
		KUNIT_EXPECT_GT(test, sched_cpu_schedstats(0).sched_count, 0);
}

static struct kunit_case tbt_cases[] = { KUNIT_CASE(tbt_test_events_as_asked),
					 KUNIT_CASE(
						 tbt_test_schedstats_as_asked),
					 {} };

static struct kunit_suite tbt_suite = {
	.name = "trace_boot",
	.test_cases = tbt_cases,
};
kunit_test_suites(&tet_suite, &tbt_suite);
