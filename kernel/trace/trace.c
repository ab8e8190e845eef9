// SPDX-License-Identifier: GPL-2.0
/*
 * The event tracer (<linux/trace.h>, Documentation/tracepoints.rst): one
 * ring buffer with a ring per CPU, events enabled by name, records read
 * back in time order and printed as Linux's trace file prints them.
 *
 * Enabling an event registers its class's probe on the event's
 * tracepoint (the trace_event_call is the probe's data), so the
 * tracepoint's key, and nothing else, is flipped. The probe
 * (<trace/trace_events.h>) reserves a record on its CPU, fills it and
 * commits it, without a lock.
 *
 * Locks: event_mutex (enabling, the event tables) is taken before the
 * tracepoint code's (the hotplug lock, tracepoints_mutex), and after the
 * loader's module_mutex; readers take trace_read_mutex, which owns the
 * per-CPU lookahead records, then event_mutex to print a record (a
 * module's printer is its text).
 */
#define pr_fmt(fmt) "trace: " fmt

#include <linux/kernel.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/text-patching.h>
#include <linux/trace.h>
#include <linux/tracepoint.h>

#define TRACE_DEFAULT_BUF_SIZE (64 * 1024)
#define TRACE_BOOT_LIST_LEN 256
#define SAVED_CMDLINES 256

static unsigned long trace_buf_size = TRACE_DEFAULT_BUF_SIZE;
core_param_named("trace_buf_size", trace_buf_size, ulong);

static char trace_boot_list[TRACE_BOOT_LIST_LEN];

static int __init set_trace_boot_events(char *val)
{
	if (strscpy(trace_boot_list, val, sizeof(trace_boot_list)) ==
	    (size_t)-E2BIG)
		pr_warn("trace_event= longer than %d bytes: cut\n",
			TRACE_BOOT_LIST_LEN - 1);
	return 0;
}
__setup("trace_event", set_trace_boot_events);

static struct trace_buffer *trace_buffer;
static DEFINE_MUTEX(event_mutex);
static DEFINE_MUTEX(trace_read_mutex);
static LIST_HEAD(event_tables); /* under event_mutex */
static unsigned short next_event_type; /* types given to tables so far */

/*
 * pid -> comm, for the task column (Linux's saved cmdlines): a writer
 * that finds another pid in its slot writes its comm, then its pid; a
 * reader copies the comm between two reads of the pid and gives up if
 * they differ. Two writers of one slot at once may leave a mixed comm:
 * it is only a name.
 */
static struct {
	int pid;
	char comm[TASK_COMM_LEN];
} saved_cmdlines[SAVED_CMDLINES];

static void trace_save_cmdline(struct task_struct *t)
{
	unsigned int slot = (unsigned int)t->pid % SAVED_CMDLINES;

	if (READ_ONCE(saved_cmdlines[slot].pid) == t->pid)
		return;
	WRITE_ONCE(saved_cmdlines[slot].pid, -1);
	barrier();
	memcpy(saved_cmdlines[slot].comm, t->comm, TASK_COMM_LEN);
	__atomic_store_n(&saved_cmdlines[slot].pid, t->pid, __ATOMIC_RELEASE);
}

static void trace_find_cmdline(int pid, char *comm)
{
	unsigned int slot = (unsigned int)pid % SAVED_CMDLINES;

	if (!pid) {
		strscpy(comm, "<idle>", TASK_COMM_LEN);
		return;
	}
	if (__atomic_load_n(&saved_cmdlines[slot].pid, __ATOMIC_ACQUIRE) ==
	    pid) {
		memcpy(comm, saved_cmdlines[slot].comm, TASK_COMM_LEN);
		comm[TASK_COMM_LEN - 1] = '\0';
		barrier();
		if (READ_ONCE(saved_cmdlines[slot].pid) == pid)
			return;
	}
	strscpy(comm, "<...>", TASK_COMM_LEN);
}

static unsigned char trace_entry_flags(int pc)
{
	unsigned char flags = 0;

	if (irqs_disabled())
		flags |= TRACE_FLAG_IRQS_OFF;
	if (need_resched())
		flags |= TRACE_FLAG_NEED_RESCHED;
	if (pc & HARDIRQ_MASK)
		flags |= TRACE_FLAG_HARDIRQ;
	return flags;
}

void *trace_event_buffer_reserve(struct trace_event_buffer *fbuffer,
				 struct trace_event_call *call,
				 unsigned long len)
{
	struct trace_buffer *buffer = READ_ONCE(trace_buffer);
	int pc = preempt_count();
	unsigned char flags = trace_entry_flags(pc);
	struct trace_entry *ent;

	if (!buffer)
		return NULL;
	ent = ring_buffer_lock_reserve(buffer, len, &fbuffer->handle);
	if (!ent)
		return NULL;
	ent->type = call->type;
	ent->flags = flags;
	/* Less the tracepoint's own RCU reader. */
	ent->preempt_count = (pc & PREEMPT_MASK) ? (pc & PREEMPT_MASK) - 1 : 0;
	ent->pid = current->pid;
	trace_save_cmdline(current);
	return ent;
}
EXPORT_SYMBOL_GPL(trace_event_buffer_reserve);

void trace_event_buffer_commit(struct trace_event_buffer *fbuffer)
{
	ring_buffer_unlock_commit(&fbuffer->handle);
}
EXPORT_SYMBOL_GPL(trace_event_buffer_commit);

/* The events */

static unsigned int trace_kernel_events(void)
{
	return __stop_ftrace_events - __start_ftrace_events;
}

/* The kernel's events, then each table's; event_mutex held. */
static void __for_each_trace_event(void (*fn)(struct trace_event_call *,
					      void *),
				   void *priv)
{
	struct trace_event_table *t;
	unsigned int i;

	for (i = 0; i < trace_kernel_events(); i++)
		fn(__start_ftrace_events[i], priv);
	list_for_each_entry(t, &event_tables, list)
		for (i = 0; i < t->num; i++)
			fn(t->start[i], priv);
}

void for_each_trace_event(void (*fn)(struct trace_event_call *call, void *priv),
			  void *priv)
{
	mutex_lock(&event_mutex);
	__for_each_trace_event(fn, priv);
	mutex_unlock(&event_mutex);
}

/*
 * The events one request switches, gathered under event_mutex and then
 * switched together: one tracepoint_probe_register_batch() (or
 * _unregister_batch()) for all of them, so every key and static call
 * they flip is patched in one batch of three sync rounds, and either all
 * switch or none does. Events already in the state asked for are left
 * out, an event matched twice is taken once.
 */
struct trace_batch {
	struct tracepoint_batch_probe *probes;
	unsigned int n, cap;
	bool set;
};

static unsigned int __trace_nr_events(void)
{
	struct trace_event_table *t;
	unsigned int n = trace_kernel_events();

	list_for_each_entry(t, &event_tables, list)
		n += t->num;
	return n;
}

/* Room for every event; event_mutex held. 0 or -ENOMEM. */
static int trace_batch_init(struct trace_batch *tb, bool set)
{
	tb->n = 0;
	tb->set = set;
	tb->cap = __trace_nr_events();
	tb->probes = kcalloc(tb->cap ?: 1, sizeof(*tb->probes), GFP_KERNEL);
	return tb->probes ? 0 : -ENOMEM;
}

static void trace_batch_add(struct trace_batch *tb,
			    struct trace_event_call *call)
{
	unsigned int i;

	if (call->enabled == tb->set)
		return;
	for (i = 0; i < tb->n; i++)
		if (tb->probes[i].data == call)
			return;
	if (WARN_ON_ONCE(tb->n == tb->cap))
		return;
	tb->probes[tb->n++] = (struct tracepoint_batch_probe){
		.tp = call->tp,
		.probe = call->class->probe,
		.data = call,
		.prio = TRACEPOINT_DEFAULT_PRIO,
	};
}

/* Switches every gathered event in one batch, then frees tb: 0 or why not. */
static int trace_batch_apply(struct trace_batch *tb)
{
	struct trace_event_call *call;
	unsigned int i;
	int ret;

	if (tb->set)
		ret = tracepoint_probe_register_batch(tb->probes, tb->n);
	else
		ret = tracepoint_probe_unregister_batch(tb->probes, tb->n);
	for (i = 0; !ret && i < tb->n; i++) {
		call = tb->probes[i].data;
		call->enabled = tb->set;
	}
	kfree(tb->probes);
	tb->probes = NULL;
	return ret;
}

/* After gathering: 0 switches tb in one batch, an error frees it. */
static int trace_batch_end(struct trace_batch *tb, int gathered)
{
	if (gathered) {
		kfree(tb->probes);
		return gathered;
	}
	return trace_batch_apply(tb);
}

struct trace_match {
	const char *system, *event; /* globs; NULL: any */
	struct trace_batch *batch; /* NULL: find only */
	int matched;
	struct trace_event_call *found;
};

static bool trace_event_matches(struct trace_event_call *call,
				const struct trace_match *m)
{
	return (!m->system || glob_match(m->system, call->class->system)) &&
	       (!m->event || glob_match(m->event, call->name));
}

/* Registers or unregisters the class's probe; event_mutex held. */
static int trace_event_set_locked(struct trace_event_call *call, bool set)
{
	int ret = 0;

	if (call->enabled == set)
		return 0;
	if (set)
		ret = tracepoint_probe_register(call->tp, call->class->probe,
						call);
	else
		ret = tracepoint_probe_unregister(call->tp, call->class->probe,
						  call);
	if (!ret)
		call->enabled = set;
	return ret;
}

static void trace_match_one(struct trace_event_call *call, void *priv)
{
	struct trace_match *m = priv;

	if (!trace_event_matches(call, m))
		return;
	m->matched++;
	if (!m->found)
		m->found = call;
	if (m->batch)
		trace_batch_add(m->batch, call);
}

/* The events matching system and event, into tb; event_mutex held. */
static int __trace_gather(const char *system, const char *event,
			  struct trace_batch *tb)
{
	struct trace_match m = { .system = system,
				 .event = event,
				 .batch = tb };

	__for_each_trace_event(trace_match_one, &m);
	return m.matched ? 0 : -EINVAL;
}

/* "system:event", or a word naming events or a system, into tb. */
static int __trace_gather_spec(const char *spec, struct trace_batch *tb)
{
	char buf[64], *colon;
	int by_event, by_system;

	if (strscpy(buf, spec, sizeof(buf)) == (size_t)-E2BIG || !buf[0])
		return -EINVAL;
	colon = strchr(buf, ':');
	if (colon) {
		*colon = '\0';
		return __trace_gather(buf[0] ? buf : NULL,
				      colon[1] ? colon + 1 : NULL, tb);
	}
	by_event = __trace_gather(NULL, buf, tb);
	by_system = __trace_gather(buf, NULL, tb);
	return by_event && by_system ? -EINVAL : 0;
}

int trace_set_clr_event(const char *system, const char *event, int set)
{
	struct trace_batch tb;
	int ret;

	mutex_lock(&event_mutex);
	ret = trace_batch_init(&tb, set);
	if (!ret)
		ret = trace_batch_end(&tb, __trace_gather(system, event, &tb));
	mutex_unlock(&event_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(trace_set_clr_event);

struct trace_event_call *trace_event_find(const char *system, const char *name)
{
	struct trace_match m = { .system = system, .event = name };

	mutex_lock(&event_mutex);
	__for_each_trace_event(trace_match_one, &m);
	mutex_unlock(&event_mutex);
	return m.found;
}

bool trace_event_is_enabled(const char *system, const char *name)
{
	struct trace_event_call *call = trace_event_find(system, name);

	return call && READ_ONCE(call->enabled);
}

int trace_set_event(const char *spec, bool enable)
{
	struct trace_batch tb;
	int ret;

	mutex_lock(&event_mutex);
	ret = trace_batch_init(&tb, enable);
	if (!ret)
		ret = trace_batch_end(&tb, __trace_gather_spec(spec, &tb));
	mutex_unlock(&event_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(trace_set_event);

/* Each spec of list into tb, saying which match nothing: the first error. */
static int __trace_gather_list(const char *list, struct trace_batch *tb)
{
	const char *p = list;
	int first_err = 0;
	char spec[64];
	size_t n;

	for (; *p; p += n + (p[n] == ',')) {
		n = strchr(p, ',') ? (size_t)(strchr(p, ',') - p) : strlen(p);
		if (!n)
			continue;
		if (n >= sizeof(spec)) {
			pr_warn("%.*s: name too long\n", (int)n, p);
			first_err = first_err ?: -EINVAL;
			continue;
		}
		memcpy(spec, p, n);
		spec[n] = '\0';
		if (__trace_gather_spec(spec, tb)) {
			pr_warn("%s %s: no such event\n",
				tb->set ? "enable" : "disable", spec);
			first_err = first_err ?: -EINVAL;
		}
	}
	return first_err;
}

int trace_set_event_list(const char *list, bool enable)
{
	struct trace_batch tb;
	int ret, first_err;

	mutex_lock(&event_mutex);
	first_err = trace_batch_init(&tb, enable);
	if (first_err)
		goto out;
	first_err = __trace_gather_list(list, &tb);
	ret = trace_batch_apply(&tb);
	if (ret)
		pr_warn("%s %s: failed (%d): nothing changed\n",
			enable ? "enable" : "disable", list, ret);
	first_err = first_err ?: ret;
out:
	mutex_unlock(&event_mutex);
	return first_err;
}

/* Reading */

/* One record per CPU taken ahead of time, to merge the CPUs in order. */
static struct trace_pending {
	bool valid;
	unsigned long lost;
	u64 ts;
	int len;
	u64 rec[RING_BUFFER_MAX_EVENT / sizeof(u64)];
} trace_pending[NR_CPUS];

struct trace_type_lookup {
	unsigned short type;
	struct trace_event_call *call;
};

static void trace_match_type(struct trace_event_call *call, void *priv)
{
	struct trace_type_lookup *l = priv;

	if (call->type == l->type)
		l->call = call;
}

/*
 * The event of a record type, or NULL (a module's that was unloaded:
 * types are never reused). event_mutex held, which keeps a module's
 * event, and its printer, from going while the caller uses them.
 */
static struct trace_event_call *trace_event_by_type(unsigned short type)
{
	struct trace_type_lookup l = { .type = type };

	if (type >= 1 && type <= trace_kernel_events())
		return __start_ftrace_events[type - 1];
	__for_each_trace_event(trace_match_type, &l);
	return l.call;
}

/* Fills cpu's lookahead if it is empty; trace_read_mutex held. */
static void trace_fill_pending(unsigned int cpu)
{
	struct trace_pending *p = &trace_pending[cpu];

	while (!p->valid) {
		p->len = ring_buffer_consume(trace_buffer, cpu, p->rec,
					     sizeof(p->rec), &p->ts, &p->lost);
		if (!p->len)
			return;
		p->valid = p->len > 0; /* -EMSGSIZE: skipped */
	}
}

/* The CPU whose lookahead is the oldest, or -1. */
static int trace_oldest_cpu(void)
{
	unsigned int cpu;
	int best = -1;

	for_each_possible_cpu(cpu) {
		trace_fill_pending(cpu);
		if (trace_pending[cpu].valid &&
		    (best < 0 ||
		     trace_pending[cpu].ts < trace_pending[best].ts))
			best = cpu;
	}
	return best;
}

static void trace_flags_str(const struct trace_entry *ent, char *s)
{
	unsigned int depth = ent->preempt_count;

	s[0] = ent->flags & TRACE_FLAG_IRQS_OFF ? 'd' : '.';
	s[1] = ent->flags & TRACE_FLAG_NEED_RESCHED ? 'N' : '.';
	s[2] = ent->flags & TRACE_FLAG_HARDIRQ ? 'h' : '.';
	s[3] = !depth ? '.' : depth < 16 ? "0123456789abcdef"[depth] : 'f';
	s[4] = '.';
	s[5] = '\0';
}

/* The line of a record: the common columns, then the event's fields. */
static int trace_format_record(char *buf, size_t size, unsigned int cpu,
			       const struct trace_pending *p)
{
	const struct trace_entry *ent = (const void *)p->rec;
	struct trace_event_call *call;
	char comm[TASK_COMM_LEN], flags[6];
	int n;

	trace_find_cmdline(ent->pid, comm);
	trace_flags_str(ent, flags);
	mutex_lock(&event_mutex);
	call = trace_event_by_type(ent->type);
	n = scnprintf(buf, size, "%16s-%-7d [%03u] %s %5llu.%06llu: %s: ", comm,
		      ent->pid, cpu, flags, p->ts / 1000000000,
		      (p->ts / 1000) % 1000000,
		      call ? call->name : "<unknown>");
	if (call)
		n += call->class->output(buf + n, size - n, ent);
	else
		n += scnprintf(buf + n, size - n, "type=%u", ent->type);
	mutex_unlock(&event_mutex);
	return n + scnprintf(buf + n, size - n, "\n");
}

int trace_read_line(char *buf, size_t size)
{
	return trace_read_line_until(buf, size, U64_MAX);
}

int trace_read_line_until(char *buf, size_t size, u64 until)
{
	struct trace_pending *p;
	int cpu, n = 0;

	if (!trace_buffer || !size)
		return 0;
	mutex_lock(&trace_read_mutex);
	cpu = trace_oldest_cpu();
	if (cpu >= 0 && trace_pending[cpu].ts > until && !trace_pending[cpu].lost)
		cpu = -1;
	if (cpu >= 0) {
		p = &trace_pending[cpu];
		if (p->lost) {
			n = scnprintf(buf, size, "CPU:%d [LOST %lu EVENTS]\n",
				      cpu, p->lost);
			p->lost = 0;
		} else {
			n = trace_format_record(buf, size, cpu, p);
			p->valid = false;
		}
	}
	mutex_unlock(&trace_read_mutex);
	buf[n] = '\0';
	return n;
}

/* Records taken ahead into the lookahead and not printed yet. */
static u64 trace_pending_count(void)
{
	unsigned int cpu;
	u64 n = 0;

	for_each_possible_cpu(cpu)
		n += trace_pending[cpu].valid;
	return n;
}

int trace_header(char *buf, size_t size)
{
	struct ring_buffer_cpu_stats st;
	u64 in = 0, written = 0;
	unsigned int cpu;

	mutex_lock(&trace_read_mutex);
	for_each_possible_cpu(cpu) {
		trace_cpu_stats(cpu, &st);
		written += st.written;
		in += st.written - st.read - st.overrun;
	}
	in += trace_pending_count();
	mutex_unlock(&trace_read_mutex);
	return scnprintf(
		buf, size,
		"# tracer: nop\n"
		"#\n"
		"# entries-in-buffer/entries-written: %llu/%llu   #P:%u\n"
		"#\n"
		"#                                _-----=> irqs-off/BH-disabled\n"
		"#                               / _----=> need-resched\n"
		"#                              | / _---=> hardirq/softirq\n"
		"#                              || / _--=> preempt-depth\n"
		"#                              ||| / _-=> migrate-disable\n"
		"#                              |||| /     delay\n"
		"#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
		"#              | |         |   |||||     |         |\n",
		in, written, num_online_cpus());
}

/*
 * The Chrome trace-event export (trace_export_json()). Each CPU is one
 * track: pid 1, tid the CPU plus one (Perfetto takes pid 0 for the idle
 * task, and has merged tid 0 with tid 1), named "CPU n" by metadata. An event whose name ends in _begin,
 * _entry or _start opens a slice ("B"), one ending in _end or _exit
 * closes the innermost open slice of the same stem ("E", closing those
 * opened inside it first); any other event is an instant ("i"). An end
 * with no open slice of its stem (its start was before the records, or
 * lost) becomes an instant, and a slice still open after the last record
 * is closed at its CPU's last timestamp: the slices of a track always
 * nest.
 */
#define TRACE_EXPORT_DEPTH 16

struct trace_export {
	void (*write)(const char *s, size_t len, void *priv);
	void *priv;
	char buf[768];
	struct trace_export_cpu {
		unsigned int depth;
		const char *stem[TRACE_EXPORT_DEPTH];
		size_t stem_len[TRACE_EXPORT_DEPTH];
		u64 last_ts;
	} cpu[NR_CPUS];
};

static const char *const trace_open_suffix[] = { "_begin", "_entry", "_start" };
static const char *const trace_close_suffix[] = { "_end", "_exit" };

/* The length of name without suffix if it ends in one of sfx[], else 0. */
static size_t trace_stem(const char *name, const char *const *sfx,
			 unsigned int n)
{
	size_t len = strlen(name), l;
	unsigned int i;

	for (i = 0; i < n; i++) {
		l = strlen(sfx[i]);
		if (len > l && !strcmp(name + len - l, sfx[i]))
			return len - l;
	}
	return 0;
}

/* Appends s, JSON-escaped, to buf at n; the new length. */
static size_t json_str(char *buf, size_t size, size_t n, const char *s,
		       size_t max)
{
	size_t i;

	for (i = 0; i < max && s[i] && n + 7 < size; i++) {
		unsigned char c = s[i];

		if (c == '"' || c == '\\')
			n += scnprintf(buf + n, size - n, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			n += scnprintf(buf + n, size - n, "\\u%04x", c);
		else
			buf[n++] = c;
	}
	buf[n] = '\0';
	return n;
}

static u64 trace_field_value(const void *p, unsigned int size, bool is_signed)
{
	switch (size) {
	case 1:
		return is_signed ? (u64)(s64) * (const s8 *)p : *(const u8 *)p;
	case 2:
		return is_signed ? (u64)(s64) * (const s16 *)p :
				   *(const u16 *)p;
	case 4:
		return is_signed ? (u64)(s64) * (const s32 *)p :
				   *(const u32 *)p;
	default:
		return *(const u64 *)p;
	}
}

/*
 * One field as a JSON member: a number, or a string for pointers and
 * values JSON's doubles cannot hold exactly (hex), char arrays (text)
 * and other arrays (hex bytes).
 */
static size_t json_field(char *buf, size_t size, size_t n,
			 const struct trace_event_field *f, const u8 *rec)
{
	const u8 *p = rec + f->offset;
	unsigned int i;
	u64 v;

	n += scnprintf(buf + n, size - n, ",\"%s\":", f->name);
	if (f->count && !strcmp(f->type, "char")) {
		buf[n++] = '"';
		n = json_str(buf, size, n, (const char *)p, f->size);
		return n + scnprintf(buf + n, size - n, "\"");
	}
	if (f->count) {
		n += scnprintf(buf + n, size - n, "\"");
		for (i = 0; i < f->size; i++)
			n += scnprintf(buf + n, size - n, "%02x", p[i]);
		return n + scnprintf(buf + n, size - n, "\"");
	}
	v = trace_field_value(p, f->size, f->is_signed);
	if (strchr(f->type, '*') || (!f->is_signed && v >> 53))
		return n + scnprintf(buf + n, size - n, "\"%#llx\"", v);
	if (f->is_signed)
		return n + scnprintf(buf + n, size - n, "%lld", (s64)v);
	return n + scnprintf(buf + n, size - n, "%llu", v);
}

/* The common part of an event: phase, time in microseconds, track. */
static size_t json_event_head(char *buf, size_t size, char ph, u64 ts,
			      unsigned int cpu)
{
	return scnprintf(
		buf, size,
		"{\"ph\":\"%c\",\"ts\":%llu.%03llu,\"pid\":1,\"tid\":%u", ph,
		ts / 1000, ts % 1000, cpu + 1);
}

static void trace_export_emit(struct trace_export *x, size_t n)
{
	x->write(x->buf, n, x->priv);
}

/* Closes cpu's innermost open slice at ts. */
static void trace_export_close(struct trace_export *x, unsigned int cpu, u64 ts)
{
	struct trace_export_cpu *c = &x->cpu[cpu];
	size_t n;

	c->depth--;
	n = json_event_head(x->buf, sizeof(x->buf), 'E', ts, cpu);
	n += scnprintf(x->buf + n, sizeof(x->buf) - n, ",\"cat\":\"");
	n = json_str(x->buf, sizeof(x->buf), n, c->stem[c->depth],
		     c->stem_len[c->depth]);
	n += scnprintf(x->buf + n, sizeof(x->buf) - n, "\"},\n");
	trace_export_emit(x, n);
}

/*
 * The phase of a record of call on cpu, with the open slices updated: an
 * end closes the slices opened inside its own first. 'i' for an end that
 * has nothing to close, and for an open past TRACE_EXPORT_DEPTH.
 */
static char trace_export_phase(struct trace_export *x, unsigned int cpu,
			       const char *name, u64 ts)
{
	struct trace_export_cpu *c = &x->cpu[cpu];
	size_t len = trace_stem(name, trace_open_suffix,
				ARRAY_SIZE(trace_open_suffix));
	int i;

	if (len && c->depth < TRACE_EXPORT_DEPTH) {
		c->stem[c->depth] = name;
		c->stem_len[c->depth++] = len;
		return 'B';
	}
	len = trace_stem(name, trace_close_suffix,
			 ARRAY_SIZE(trace_close_suffix));
	for (i = (int)c->depth - 1; len && i >= 0; i--) {
		if (c->stem_len[i] != len || strncmp(c->stem[i], name, len))
			continue;
		while ((int)c->depth - 1 > i)
			trace_export_close(x, cpu, ts);
		c->depth--;
		return 'E';
	}
	return 'i';
}

/* One record as a JSON event; trace_read_mutex and event_mutex held. */
static void trace_export_record(struct trace_export *x, unsigned int cpu,
				const struct trace_pending *p)
{
	const struct trace_entry *ent = (const void *)p->rec;
	struct trace_event_call *call = trace_event_by_type(ent->type);
	const struct trace_event_field *f;
	char comm[TASK_COMM_LEN], flags[6], text[256];
	size_t size = sizeof(x->buf), n, stem;
	char ph;

	x->cpu[cpu].last_ts = p->ts;
	if (!call)
		return;
	ph = trace_export_phase(x, cpu, call->name, p->ts);
	if (ph == 'B')
		stem = x->cpu[cpu].stem_len[x->cpu[cpu].depth - 1];
	else if (ph == 'E')
		stem = trace_stem(call->name, trace_close_suffix,
				  ARRAY_SIZE(trace_close_suffix));
	else
		stem = strlen(call->name);
	call->class->output(text, sizeof(text), ent);
	trace_find_cmdline(ent->pid, comm);
	trace_flags_str(ent, flags);
	n = json_event_head(x->buf, size, ph, p->ts, cpu);
	n += scnprintf(x->buf + n, size - n, ",\"cat\":\"");
	n = json_str(x->buf, size, n, call->name, stem);
	n += scnprintf(x->buf + n, size - n, "\",\"name\":\"");
	n = json_str(x->buf, size, n, call->name, stem);
	n += scnprintf(x->buf + n, size - n, ": ");
	n = json_str(x->buf, size, n, text, sizeof(text));
	n += scnprintf(
		x->buf + n, size - n,
		"\"%s,\"args\":{\"event\":\"%s\",\"system\":\"%s\",\"comm\":\"",
		ph == 'i' ? ",\"s\":\"t\"" : "", call->name,
		call->class->system);
	n = json_str(x->buf, size, n, comm, sizeof(comm));
	n += scnprintf(x->buf + n, size - n,
		       "\",\"common_pid\":%d,\"flags\":\"%s\"", ent->pid,
		       flags);
	for (f = call->class->fields(); f->name; f++)
		n = json_field(x->buf, size, n, f, (const u8 *)p->rec);
	n += scnprintf(x->buf + n, size - n, "}},\n");
	trace_export_emit(x, n);
}

/* Where cpu's records were overwritten: an instant that says how many. */
static void trace_export_lost(struct trace_export *x, unsigned int cpu,
			      unsigned long lost, u64 ts)
{
	size_t n = json_event_head(x->buf, sizeof(x->buf), 'i', ts, cpu);

	n += scnprintf(
		x->buf + n, sizeof(x->buf) - n,
		",\"s\":\"t\",\"cat\":\"lost\",\"name\":\"LOST %lu EVENTS\",\"args\":{\"lost\":%lu}},\n",
		lost, lost);
	trace_export_emit(x, n);
}

/* The tracks: a process for the kernel, a thread named for each CPU. */
static void trace_export_tracks(struct trace_export *x)
{
	unsigned int cpu;
	size_t n;

	n = scnprintf(
		x->buf, sizeof(x->buf),
		"{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n"
		"{\"ph\":\"M\",\"pid\":1,\"tid\":1,\"name\":\"process_name\",\"args\":{\"name\":\"kernel\"}},\n");
	trace_export_emit(x, n);
	for_each_possible_cpu(cpu) {
		n = scnprintf(
			x->buf, sizeof(x->buf),
			"{\"ph\":\"M\",\"pid\":1,\"tid\":%u,\"name\":\"thread_name\",\"args\":{\"name\":\"CPU %u\"}},\n"
			"{\"ph\":\"M\",\"pid\":1,\"tid\":%u,\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":%u}},\n",
			cpu + 1, cpu, cpu + 1, cpu);
		trace_export_emit(x, n);
	}
}

int trace_export_json(void (*write)(const char *s, size_t len, void *priv),
		      void *priv, u64 until)
{
	struct trace_export *x = kzalloc(sizeof(*x), GFP_KERNEL);
	struct trace_pending *p;
	unsigned int cpu;
	int nr = 0, best;
	size_t n;

	if (!x)
		return -ENOMEM;
	x->write = write;
	x->priv = priv;
	trace_export_tracks(x);
	mutex_lock(&trace_read_mutex);
	while (trace_buffer && (best = trace_oldest_cpu()) >= 0) {
		p = &trace_pending[best];
		if (p->ts > until && !p->lost)
			break;
		if (p->lost) {
			trace_export_lost(x, best, p->lost, p->ts);
			p->lost = 0;
			continue;
		}
		mutex_lock(&event_mutex);
		trace_export_record(x, best, p);
		mutex_unlock(&event_mutex);
		p->valid = false;
		nr++;
	}
	mutex_unlock(&trace_read_mutex);
	for_each_possible_cpu(cpu)
		while (x->cpu[cpu].depth)
			trace_export_close(x, cpu, x->cpu[cpu].last_ts);
	/* The metadata event last: no comma to strip after the records. */
	n = scnprintf(
		x->buf, sizeof(x->buf),
		"{\"ph\":\"M\",\"pid\":1,\"tid\":1,\"name\":\"process_labels\",\"args\":{\"labels\":\"%d records\"}}\n]}\n",
		nr);
	trace_export_emit(x, n);
	kfree(x);
	return nr;
}

static DEFINE_MUTEX(trace_dump_mutex);

void trace_dump(void)
{
	static char line[1024]; /* under trace_dump_mutex: the header too */

	mutex_lock(&trace_dump_mutex);
	trace_header(line, sizeof(line));
	printk(KERN_INFO "%s", line);
	while (trace_read_line(line, sizeof(line)))
		printk(KERN_INFO "%s", line);
	mutex_unlock(&trace_dump_mutex);
}

void trace_clear(void)
{
	unsigned int cpu;
	u64 rec[RING_BUFFER_MAX_EVENT / sizeof(u64)];

	if (!trace_buffer)
		return;
	mutex_lock(&trace_read_mutex);
	ring_buffer_record_disable(trace_buffer);
	for_each_possible_cpu(cpu) {
		trace_pending[cpu].valid = false;
		trace_pending[cpu].lost = 0;
		while (ring_buffer_consume(trace_buffer, cpu, rec, sizeof(rec),
					   NULL, NULL))
			;
	}
	ring_buffer_record_enable(trace_buffer);
	mutex_unlock(&trace_read_mutex);
}

static atomic_t tracing_disabled;

void tracing_off(void)
{
	if (trace_buffer && atomic_xchg(&tracing_disabled, 1) == 0)
		ring_buffer_record_disable(trace_buffer);
}

void tracing_on(void)
{
	if (trace_buffer && atomic_xchg(&tracing_disabled, 0) == 1)
		ring_buffer_record_enable(trace_buffer);
}

bool tracing_is_on(void)
{
	return trace_buffer && !atomic_read(&tracing_disabled);
}

void trace_cpu_stats(unsigned int cpu, struct ring_buffer_cpu_stats *stats)
{
	if (trace_buffer)
		ring_buffer_cpu_stats(trace_buffer, cpu, stats);
	else
		memset(stats, 0, sizeof(*stats));
}

static int trace_format_field(char *buf, size_t size,
			      const struct trace_event_field *f)
{
	char dim[16] = "";

	if (f->count)
		snprintf(dim, sizeof(dim), "[%u]", f->count);
	return snprintf(buf, size,
			"\tfield:%s %s%s;\toffset:%u;\tsize:%u;\tsigned:%d;\n",
			f->type, f->name, dim, f->offset, f->size,
			f->is_signed);
}

static const struct trace_event_field trace_common_fields[] = {
	{ "unsigned short", "common_type", 0, 2, false, 0 },
	{ "unsigned char", "common_flags", 2, 1, false, 0 },
	{ "unsigned char", "common_preempt_count", 3, 1, false, 0 },
	{ "int", "common_pid", 4, 4, true, 0 },
	{}
};

int trace_event_format(struct trace_event_call *call, char *buf, size_t size)
{
	const struct trace_event_field *f;
	size_t n;

	n = snprintf(buf, size, "name: %s\nID: %u\nformat:\n", call->name,
		     call->type);
	for (f = trace_common_fields; f->name; f++)
		n += trace_format_field(buf + min(n, size), size - min(n, size),
					f);
	n += snprintf(buf + min(n, size), size - min(n, size), "\n");
	for (f = call->class->fields(); f->name; f++)
		n += trace_format_field(buf + min(n, size), size - min(n, size),
					f);
	n += snprintf(buf + min(n, size), size - min(n, size),
		      "\nprint fmt: %s\n", call->class->print_fmt);
	return n;
}

const char *trace_boot_events(void)
{
	return trace_boot_list;
}

/* What enabling trace_event= cost (trace_init()): batches, sync rounds. */
static unsigned long trace_boot_batches, trace_boot_rounds;

void trace_boot_patch_stats(unsigned long *batches, unsigned long *rounds)
{
	*batches = trace_boot_batches;
	*rounds = trace_boot_rounds;
}

/* Module tables: types after the kernel's, never reused. */
int trace_module_add_events(struct trace_event_table *table)
{
	unsigned int i;

	mutex_lock(&event_mutex);
	for (i = 0; i < table->num; i++)
		table->start[i]->type =
			trace_kernel_events() + ++next_event_type;
	list_add_tail(&table->list, &event_tables);
	mutex_unlock(&event_mutex);
	return 0;
}

void trace_module_remove_events(struct trace_event_table *table)
{
	struct trace_batch tb;
	unsigned int i;

	/* One batch for the module's events; one by one without memory. */
	mutex_lock(&event_mutex);
	if (!trace_batch_init(&tb, false)) {
		for (i = 0; i < table->num; i++)
			trace_batch_add(&tb, table->start[i]);
		trace_batch_apply(&tb);
	}
	for (i = 0; i < table->num; i++)
		trace_event_set_locked(table->start[i], false);
	list_del_init(&table->list);
	mutex_unlock(&event_mutex);
	tracepoint_synchronize_unregister();
}

static void __init trace_count_enabled(struct trace_event_call *call,
				       void *priv)
{
	*(unsigned int *)priv += call->enabled;
}

static int __init trace_init(void)
{
	struct text_poke_stats before, after;
	unsigned int i;

	for (i = 0; i < trace_kernel_events(); i++)
		__start_ftrace_events[i]->type = i + 1;
	trace_buffer = ring_buffer_alloc(trace_buf_size);
	if (!trace_buffer) {
		pr_err("no memory for %lu bytes per CPU: no tracing\n",
		       trace_buf_size);
		return -ENOMEM;
	}
	pr_info("%u events, %u KiB ring per CPU\n", trace_kernel_events(),
		ring_buffer_nr_pages(trace_buffer) * 4);
	if (trace_boot_list[0]) {
		unsigned int on = 0;

		before = text_poke_get_stats();
		trace_set_event_list(trace_boot_list, true);
		after = text_poke_get_stats();
		trace_boot_batches = after.batches - before.batches;
		trace_boot_rounds = after.sync_rounds - before.sync_rounds;
		for_each_trace_event(trace_count_enabled, &on);
		pr_info("trace_event=%s: %u events enabled\n", trace_boot_list,
			on);
		pr_info("trace_event=: %lu batches, %lu sync rounds\n",
			trace_boot_batches, trace_boot_rounds);
	}
	return 0;
}
device_initcall(trace_init);
