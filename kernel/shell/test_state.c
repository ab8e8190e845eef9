// SPDX-License-Identifier: GPL-2.0
/*
 * What a suite run from the console ('test') may change and must give
 * back: which CPUs are online and which trace events are on. The suites
 * leave the machine as the boot made it (all CPUs online, no event on),
 * which is not how the console's user may have set it.
 */
#include <linux/kernel.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/shell.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/trace.h>
#include <linux/trace_events.h>

#define SAVED_EVENTS 64
#define EVENT_NAME 64

struct shell_state {
	bool online[NR_CPUS];
	unsigned int events;
	char on[SAVED_EVENTS][EVENT_NAME]; /* "system:name" */
};

static void restore_cpus(const struct shell_state *s)
{
	unsigned int cpu;
	bool now;
	int ret;

	for_each_possible_cpu(cpu) {
		now = cpu_online(cpu);
		if (now == s->online[cpu])
			continue;
		ret = now ? remove_cpu(cpu) : add_cpu(cpu);
		shell_printf("test: cpu %u %s again%s\n", cpu,
			     now ? "offline" : "online", ret ? ": failed" : "");
	}
}

#ifdef CONFIG_TRACING
static void event_spec(struct trace_event_call *call, char *buf)
{
	scnprintf(buf, EVENT_NAME, "%s:%s", call->class->system, call->name);
}

static void note_event(struct trace_event_call *call, void *priv)
{
	struct shell_state *s = priv;

	if (call->enabled && s->events < SAVED_EVENTS)
		event_spec(call, s->on[s->events++]);
}

static bool was_on(const struct shell_state *s, const char *spec)
{
	unsigned int i;

	for (i = 0; i < s->events; i++)
		if (!strcmp(s->on[i], spec))
			return true;
	return false;
}

/* The events on now that were not: collected, switched off after. */
struct event_diff {
	const struct shell_state *before;
	struct shell_state *extra;
};

static void note_extra(struct trace_event_call *call, void *priv)
{
	struct event_diff *d = priv;
	char spec[EVENT_NAME];

	event_spec(call, spec);
	if (call->enabled && !was_on(d->before, spec) &&
	    d->extra->events < SAVED_EVENTS)
		strscpy(d->extra->on[d->extra->events++], spec, EVENT_NAME);
}

static bool spec_enabled(const char *spec)
{
	char buf[EVENT_NAME], *colon;

	strscpy(buf, spec, sizeof(buf));
	colon = strchr(buf, ':');
	if (!colon)
		return false;
	*colon = '\0';
	return trace_event_is_enabled(buf, colon + 1);
}

static void switch_event(const char *spec, bool on)
{
	if (on == spec_enabled(spec))
		return;
	shell_printf("test: event %s %s again%s\n", spec, on ? "on" : "off",
		     trace_set_event(spec, on) ? ": failed" : "");
}

static void save_events(struct shell_state *s)
{
	for_each_trace_event(note_event, s);
}

static void restore_events(const struct shell_state *s,
			   struct shell_state *tmp)
{
	struct event_diff d = { s, tmp };
	unsigned int i;

	tmp->events = 0;
	for_each_trace_event(note_extra, &d);
	for (i = 0; i < tmp->events; i++)
		switch_event(tmp->on[i], false);
	for (i = 0; i < s->events; i++)
		switch_event(s->on[i], true);
}
#else
static void save_events(struct shell_state *s)
{
}

static void restore_events(const struct shell_state *s,
			   struct shell_state *tmp)
{
}
#endif

struct shell_state *shell_state_save(void)
{
	struct shell_state *s = kzalloc(2 * sizeof(*s), GFP_KERNEL);
	unsigned int cpu;

	if (!s)
		return NULL;
	for_each_possible_cpu(cpu)
		s->online[cpu] = cpu_online(cpu);
	save_events(s);
	return s;
}

void shell_state_restore(struct shell_state *s)
{
	if (!s)
		return;
	restore_cpus(s);
	restore_events(s, s + 1);
	kfree(s);
}
