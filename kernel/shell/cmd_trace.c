// SPDX-License-Identifier: GPL-2.0
/*
 * Console commands on tracepoints and the tracer: tracepoints, trace.
 * Built with CONFIG_TRACING (shell.c has an empty default otherwise).
 */
#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/module.h>
#include <linux/shell.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/text-patching.h>
#include <linux/timekeeping.h>
#include <linux/trace.h>
#include <linux/tracepoint.h>

#define TP_SHOW_EVENTS 32
#define TP_SHOW_NAME 48

/*
 * The enabled events' names are copied first, under the tracer's
 * event_mutex: for_each_tracepoint() holds tracepoints_mutex, which
 * nests inside event_mutex, so its callback must not ask the tracer.
 */
struct tp_show {
	const char *glob;
	unsigned int shown, total, events;
	char (*on)[TP_SHOW_NAME];
};

static void tp_note_enabled(struct trace_event_call *call, void *priv)
{
	struct tp_show *s = priv;

	if (call->enabled && s->events < TP_SHOW_EVENTS)
		strscpy(s->on[s->events++], call->name, TP_SHOW_NAME);
}

static bool tp_event_on(const struct tp_show *s, const char *name)
{
	unsigned int i;

	for (i = 0; i < s->events; i++)
		if (!strcmp(s->on[i], name))
			return true;
	return false;
}

static unsigned int tp_probes(struct tracepoint *tp)
{
	struct tracepoint_func *f;
	unsigned int n = 0;

	rcu_read_lock();
	f = rcu_dereference(tp->funcs);
	for (; f && f->func; f++)
		n++;
	rcu_read_unlock();
	return n;
}

static void tp_show_one(struct tracepoint *tp, void *priv)
{
	struct module *mod = __module_address((unsigned long)tp);
	struct tp_show *s = priv;

	s->total++;
	if (!glob_match(s->glob, tp->name))
		return;
	s->shown++;
	shell_printf("%-28s %-8s %6u %-8s %s\n", tp->name,
		     tracepoint_enabled(tp) ? "enabled" : "disabled",
		     tp_probes(tp),
		     tp_event_on(s, tp->name) ? "on" : "off",
		     mod ? mod->name : "-");
}

static int cmd_tracepoints(int argc, char **argv)
{
	struct tp_show s = { argc > 1 ? argv[1] : "*" };

	s.on = kcalloc(TP_SHOW_EVENTS, TP_SHOW_NAME, GFP_KERNEL);
	if (!s.on) {
		shell_printf("tracepoints: out of memory\n");
		return -ENOMEM;
	}
	for_each_trace_event(tp_note_enabled, &s);
	shell_printf("%-28s %-8s %6s %-8s %s\n", "TRACEPOINT", "KEY", "PROBES",
		     "EVENT", "MODULE");
	for_each_tracepoint(tp_show_one, &s);
	shell_printf("%u of %u tracepoints\n", s.shown, s.total);
	kfree(s.on);
	return 0;
}

static void count_enabled(struct trace_event_call *call, void *priv)
{
	*(unsigned int *)priv += call->enabled;
}

static unsigned int trace_events_enabled(void)
{
	unsigned int n = 0;

	for_each_trace_event(count_enabled, &n);
	return n;
}

/* trace on|off <event>: the event spec of <linux/trace.h>, globs allowed. */
static int trace_switch(const char *spec, bool on)
{
	struct text_poke_stats before = text_poke_get_stats(), now;
	unsigned long jl = READ_ONCE(text_poke_jump_label_sites);
	unsigned long sc = READ_ONCE(text_poke_static_call_sites);
	unsigned int was = trace_events_enabled();
	int ret = trace_set_event(spec, on);

	/* trace_set_event() says -EINVAL, as Linux's API, when none match. */
	if (ret == -EINVAL) {
		shell_printf(
			"trace: %s: no such event (%d); 'tracepoints' lists them\n",
			spec, -ENOENT);
		return -ENOENT;
	}
	if (ret) {
		shell_printf("trace: %s: failed (%d)\n", spec, ret);
		return ret;
	}
	now = text_poke_get_stats();
	/* Each tracepoint is a key (its jump-label sites) and a static call. */
	shell_printf(
		"trace: %s: %s, %u events enabled now (was %u), %lu sites patched (%lu jump-label, %lu static-call) in %lu batches, %lu sync rounds\n",
		spec, on ? "on" : "off", trace_events_enabled(), was,
		now.sites - before.sites,
		READ_ONCE(text_poke_jump_label_sites) - jl,
		READ_ONCE(text_poke_static_call_sites) - sc,
		now.batches - before.batches,
		now.sync_rounds - before.sync_rounds);
	return 0;
}

/*
 * What the rings hold now, then stop: events may come faster than the
 * console prints them (irq events), and the command must end.
 */
static int trace_show(void)
{
	static char line[1024]; /* one console thread; the header too */
	u64 now = ktime_get_ns();
	unsigned int n = 0;
	int len;

	shell_write(line, trace_header(line, sizeof(line)));
	while ((len = trace_read_line_until(line, sizeof(line), now)) > 0) {
		shell_write(line, len);
		n++;
	}
	shell_printf("trace: %u lines (read lines are consumed)\n", n);
	return 0;
}

static void trace_export_write(const char *s, size_t len, void *priv)
{
	shell_write(s, len);
}

/*
 * trace export: the same records as Chrome trace-event JSON (Perfetto,
 * chrome://tracing), consumed; scripts/trace_json.py takes it from the
 * console's log.
 */
static int trace_export(void)
{
	int n = trace_export_json(trace_export_write, NULL, ktime_get_ns());

	if (n < 0) {
		shell_printf("trace: export: out of memory\n");
		return n;
	}
	shell_printf("trace: exported %d records as Chrome trace-event JSON\n",
		     n);
	return 0;
}

static int cmd_trace(int argc, char **argv)
{
	if (argc == 1)
		return trace_show();
	if (argc == 2 && !strcmp(argv[1], "export"))
		return trace_export();
	if (argc == 2 && !strcmp(argv[1], "clear")) {
		trace_clear();
		shell_printf("trace: cleared\n");
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "on"))
		return trace_switch(argv[2], true);
	if (argc == 3 && !strcmp(argv[1], "off"))
		return trace_switch(argv[2], false);
	return shell_usage(argv[0]);
}

static void complete_tp(struct tracepoint *tp, void *priv)
{
	shell_complete_add(priv, tp->name);
}

static void complete_tracepoints(struct shell_completion *c)
{
	if (c->argi == 1)
		for_each_tracepoint(complete_tp, c);
}

static void complete_trace(struct shell_completion *c)
{
	if (c->argi == 2)
		for_each_tracepoint(complete_tp, c);
	if (c->argi != 1)
		return;
	shell_complete_add(c, "on");
	shell_complete_add(c, "off");
	shell_complete_add(c, "clear");
	shell_complete_add(c, "export");
}

/*
 * trace is one command for show, clear, on and off; it changes state, so
 * the sandbox refuses all of it (showing consumes the buffer, too).
 */
const struct shell_cmd shell_trace_cmds[] = {
	{ "tracepoints", "[glob]",
	  "tracepoints: key state, probes, event on/off, module", 0, 1, false,
	  cmd_tracepoints, complete_tracepoints },
	{ "trace", "[on|off <event> | clear | export]",
	  "show the trace (consumed; export: as Chrome JSON), clear it, or switch events",
	  0, 2, true, cmd_trace, complete_trace },
	{ NULL }
};
