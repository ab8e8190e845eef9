// SPDX-License-Identifier: GPL-2.0
/*
 * The lock-order checker: lock classes, the orders recorded between them
 * (edges of a graph) and each task's held locks. <linux/lockorder.h> has
 * the API, Documentation/locking.rst the rules.
 *
 * Invariants:
 *  - classes and edges live in fixed arrays, written under lockorder_lock
 *    (a raw spinlock, interrupts off) and only ever added: once written,
 *    an edge never changes, so a report may print it after the unlock;
 *  - the edges that are not inversions form an acyclic graph: an edge
 *    that would close a cycle is reported and kept as an inversion, which
 *    no path search follows;
 *  - a task's held locks are touched by the task alone, without the lock;
 *  - held[i].chain is a hash of the classes of held[0..i], oldest first
 *    (lockorder_chain()); a value in class->chains[] is the chain of a
 *    stack on which class was taken and found in order with every held
 *    class. Edges are never removed, so taking class again on top of a
 *    stack of that chain needs no look at the graph (written without the
 *    lock: every value a slot ever holds is such a chain). As Linux's
 *    lockdep does with its chain keys, it trusts a 64-bit hash: two
 *    stacks that collide would share a verdict;
 *  - C in class->last_to[] means that class -> C is recorded, as an order
 *    or as a reported inversion: either way a search would let C be taken
 *    under class without a report (written under the lock, read without;
 *    every value a slot ever holds is such a C, so a racing read is sound).
 *
 * The fast path takes no lock and reads no table: an acquisition with
 * nothing held, or whose class names the chain it is taken on top of in
 * its chains[], pushes an entry (a key flip's jump_label_mutex under the
 * hotplug lock, then text_mutex under both); a release of the newest
 * entry pops it. Next, still without the lock: a class that every held
 * class names in its last_to[] is in order (two slots, so the two locks
 * of a flip do not evict each other). Only a new combination takes the
 * lock and searches the graph.
 */
#define pr_fmt(fmt) "lockorder: " fmt

#include <linux/kernel.h>
#include <linux/init.h>
#include <linux/irqflags.h>
#include <linux/lockorder.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#define LOCKORDER_MAX_CLASSES 256
#define LOCKORDER_MAX_EDGES 1024
/* Edges of a recorded path that a report prints; the rest are counted. */
#define LOCKORDER_REPORT_EDGES 8

struct lock_class {
	const char *name;
	struct lockorder_edge *edges; /* the orders from this class */
	/*
	 * The last two classes found with a recorded edge from this one,
	 * newest first; read without the lock.
	 */
	struct lock_class *last_to[2];
	/* The last two chains it was found in order on, newest first. */
	unsigned long chains[2];
	/* Marks of the path search (lockorder_lock). */
	unsigned int bfs_gen;
	struct lockorder_edge *bfs_via; /* the edge it was reached by */
	/* Reported once per class (lockorder_lock). */
	bool recursion_reported;
	bool exit_reported;
};

/*
 * from -> to: a task took to (at to_ip) while it held from (taken at
 * from_ip). An inversion edge records a reported pair whose reverse was
 * recorded first: it keeps the report from repeating and is no order.
 */
struct lockorder_edge {
	struct lock_class *from, *to;
	unsigned long from_ip, to_ip;
	struct lockorder_edge *next; /* from's next edge */
	bool inversion;
};

static DEFINE_SPINLOCK(lockorder_lock);
static struct lock_class lock_classes[LOCKORDER_MAX_CLASSES];
static struct lockorder_edge lockorder_edges[LOCKORDER_MAX_EDGES];
static unsigned int nr_classes, nr_edges;
/* The usable part of the arrays: lowered by the tests' hooks only. */
static unsigned int max_classes = LOCKORDER_MAX_CLASSES;
static unsigned int max_edges = LOCKORDER_MAX_EDGES;
static bool classes_full_said, edges_full_said;
static struct lock_class *bfs_queue[LOCKORDER_MAX_CLASSES];
static unsigned int bfs_gen;

/* The class of the locks not checked: no room, or a key not static. */
static struct lock_class lockorder_untracked = { .name = "(untracked)" };

static unsigned long lockorder_lock_irqsave(void)
{
	unsigned long flags;

	local_irq_save(flags);
	do_raw_spin_lock(&lockorder_lock);
	return flags;
}

static void lockorder_unlock_irqrestore(unsigned long flags)
{
	do_raw_spin_unlock(&lockorder_lock);
	local_irq_restore(flags);
}

/* True if p is in the image's data or bss: it outlives every lock. */
static bool lockorder_static_obj(const void *p)
{
	unsigned long a = (unsigned long)p;

	return (a >= (unsigned long)_sdata && a < (unsigned long)_edata) ||
	       (a >= (unsigned long)__bss_start &&
		a < (unsigned long)__bss_stop);
}

void lockorder_map_init(struct lockorder_map *map, const char *name,
			struct lock_class_key *key)
{
	map->key = key;
	map->class = NULL;
	map->name = name;
}

/* lockorder_lock held: a new class, or the untracked one when full. */
static struct lock_class *lockorder_new_class(const char *name)
{
	struct lock_class *c;

	if (nr_classes >= max_classes) {
		if (!classes_full_said)
			pr_err("class table full (%u classes): %s and later new classes are not checked\n",
			       nr_classes, name);
		classes_full_said = true;
		return &lockorder_untracked;
	}
	c = &lock_classes[nr_classes++];
	c->name = name;
	return c;
}

/* The class of map, registered at its first acquisition. */
static noinline struct lock_class *lockorder_register(struct lockorder_map *map)
{
	struct lock_class_key *key = map->key;
	struct lock_class *c;
	unsigned long flags;

	if (!lockorder_static_obj(key ? (void *)key : (void *)map)) {
		WARN_ONCE(
			1,
			"lockorder: lock %s: its %s at %p is not static data; the lock is not checked\n",
			map->name, key ? "class key" : "map (no key)",
			key ? (void *)key : (void *)map);
		WRITE_ONCE(map->class, &lockorder_untracked);
		return &lockorder_untracked;
	}
	flags = lockorder_lock_irqsave();
	c = key ? key->class : map->class;
	if (!c) {
		c = lockorder_new_class(map->name);
		if (key)
			key->class = c;
	}
	WRITE_ONCE(map->class, c);
	lockorder_unlock_irqrestore(flags);
	return c;
}

static struct lockorder_edge *lockorder_find_edge(struct lock_class *from,
						  struct lock_class *to)
{
	struct lockorder_edge *e;

	for (e = from->edges; e; e = e->next)
		if (e->to == to)
			return e;
	return NULL;
}

/* lockorder_lock held, room checked: records h's class -> to. */
static void lockorder_add_edge(const struct lockorder_held *h,
			       struct lock_class *to, unsigned long ip,
			       bool inversion)
{
	struct lockorder_edge *e = &lockorder_edges[nr_edges++];

	e->from = h->class;
	e->to = to;
	e->from_ip = h->ip;
	e->to_ip = ip;
	e->inversion = inversion;
	e->next = h->class->edges;
	h->class->edges = e;
}

/* lockorder_lock held: false, after saying so once, if no edge fits. */
static bool lockorder_edge_room(const struct lockorder_held *h,
				struct lock_class *to)
{
	if (nr_edges < max_edges)
		return true;
	if (!edges_full_said)
		pr_err("edge table full (%u orders): %s -> %s and later new orders are not recorded nor checked\n",
		       nr_edges, h->class->name, to->name);
	edges_full_said = true;
	return false;
}

/*
 * lockorder_lock held: true if recorded orders lead from 'from' to 'to'.
 * Breadth first, so each class reached keeps in bfs_via the last edge of
 * a shortest path to it.
 */
static bool lockorder_path(struct lock_class *from, struct lock_class *to)
{
	unsigned int head = 0, tail = 0, i;
	struct lockorder_edge *e;

	if (++bfs_gen == 0) { /* wrapped: no stale mark may look current */
		for (i = 0; i < nr_classes; i++)
			lock_classes[i].bfs_gen = 0;
		bfs_gen = 1;
	}
	from->bfs_gen = bfs_gen;
	bfs_queue[tail++] = from;
	while (head < tail) {
		for (e = bfs_queue[head++]->edges; e; e = e->next) {
			if (e->inversion || e->to->bfs_gen == bfs_gen)
				continue;
			e->to->bfs_gen = bfs_gen;
			e->to->bfs_via = e;
			if (e->to == to)
				return true;
			bfs_queue[tail++] = e->to;
		}
	}
	return false;
}

enum lockorder_kind {
	LOCKORDER_OK,
	LOCKORDER_INVERSION,
	LOCKORDER_RECURSION,
};

/* What a report prints, gathered under lockorder_lock. */
struct lockorder_report {
	enum lockorder_kind kind;
	const struct lockorder_held *held; /* the held lock at fault */
	struct lock_class *class; /* the class being taken */
	unsigned long ip;
	bool read;
	struct lockorder_edge *path[LOCKORDER_REPORT_EDGES];
	unsigned int path_len; /* edges in the recorded path, all of them */
};

/* lockorder_lock held: the path lockorder_path() found, from its start. */
static void lockorder_save_path(struct lockorder_report *r,
				struct lock_class *from, struct lock_class *to)
{
	struct lockorder_edge *e;
	unsigned int n = 0, i;

	for (e = to->bfs_via; e->from != from; e = e->from->bfs_via)
		n++;
	r->path_len = n + 1;
	i = n;
	for (e = to->bfs_via;; e = e->from->bfs_via) {
		if (i < LOCKORDER_REPORT_EDGES)
			r->path[i] = e;
		if (e->from == from)
			break;
		i--;
	}
}

/* from -> to is recorded: remember to in from's cache (under the lock). */
static void lockorder_note_last_to(struct lock_class *from,
				   struct lock_class *to)
{
	if (from->last_to[0] == to)
		return;
	WRITE_ONCE(from->last_to[1], from->last_to[0]);
	WRITE_ONCE(from->last_to[0], to);
}

/*
 * lockorder_lock held: checks class (taken at ip) against every lock of
 * lt, oldest first, and records the orders that are new. Stops at the
 * first inversion, which r describes (the next acquisition goes on from
 * there). True if every held class was checked and found in order.
 */
static bool lockorder_check_graph(struct lockorder_task *lt,
				  struct lockorder_map *map,
				  struct lock_class *class, unsigned long ip,
				  struct lockorder_report *r)
{
	const struct lockorder_held *h;
	struct lockorder_edge *e;
	bool complete = true;
	unsigned int i;

	for (i = 0; i < lt->depth; i++) {
		h = &lt->held[i];
		if (h->class == class) { /* nested in its own class */
			if (h->map == map && !r->held)
				r->held = h;
			complete = false;
			continue;
		}
		e = lockorder_find_edge(h->class, class);
		if (e) {
			lockorder_note_last_to(h->class, class);
			continue;
		}
		if (!lockorder_edge_room(h, class)) {
			complete = false;
			continue;
		}
		if (lockorder_path(class, h->class)) {
			lockorder_add_edge(h, class, ip, true);
			r->kind = LOCKORDER_INVERSION;
			r->held = h;
			lockorder_save_path(r, class, h->class);
			return false;
		}
		lockorder_add_edge(h, class, ip, false);
		lockorder_note_last_to(h->class, class);
	}
	if (r->held && !class->recursion_reported) {
		class->recursion_reported = true;
		r->kind = LOCKORDER_RECURSION;
	}
	return complete;
}

/* A report's text, built whole so that it prints inside one WARN. */
static DEFINE_SPINLOCK(lockorder_msg_lock);
static struct {
	char buf[1024];
	size_t len;
} lockorder_msg;

static __printf(1, 2) void lockorder_msg_add(const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	lockorder_msg.len += vscnprintf(
		lockorder_msg.buf + lockorder_msg.len,
		sizeof(lockorder_msg.buf) - lockorder_msg.len, fmt, args);
	va_end(args);
}

static unsigned long lockorder_msg_start(void)
{
	unsigned long flags;

	local_irq_save(flags);
	do_raw_spin_lock(&lockorder_msg_lock);
	lockorder_msg.len = 0;
	return flags;
}

/* Prints the message as a WARN whose caller is ip, then frees it. */
static void lockorder_msg_warn(unsigned long ip, unsigned long flags)
{
	__warn(__FILE__, __LINE__, ip, "%s", lockorder_msg.buf);
	do_raw_spin_unlock(&lockorder_msg_lock);
	local_irq_restore(flags);
}

static const char *lockorder_rw(bool read)
{
	return read ? " (read)" : "";
}

static void lockorder_print_inversion(const struct lockorder_report *r)
{
	const struct lockorder_held *h = r->held;
	unsigned int i,
		n = min(r->path_len, (unsigned int)LOCKORDER_REPORT_EDGES);
	unsigned long flags = lockorder_msg_start();

	lockorder_msg_add(
		"lockorder: lock order inversion: %s/%d takes %s%s while holding %s%s:\n",
		current->comm, current->pid, r->class->name,
		lockorder_rw(r->read), h->class->name, lockorder_rw(h->read));
	lockorder_msg_add(" %s taken at %pS, then %s at %pS\n", h->class->name,
			  (void *)h->ip, r->class->name, (void *)r->ip);
	lockorder_msg_add("the recorded order is %s", r->class->name);
	for (i = 0; i < n; i++)
		lockorder_msg_add(" -> %s", r->path[i]->to->name);
	lockorder_msg_add("%s:\n", n < r->path_len ? " -> ..." : "");
	for (i = 0; i < n; i++)
		lockorder_msg_add(" %s taken at %pS, then %s at %pS\n",
				  r->path[i]->from->name,
				  (void *)r->path[i]->from_ip,
				  r->path[i]->to->name,
				  (void *)r->path[i]->to_ip);
	if (n < r->path_len)
		lockorder_msg_add(" ... and %u more\n", r->path_len - n);
	lockorder_msg_warn(r->ip, flags);
}

static void lockorder_print_recursion(const struct lockorder_report *r)
{
	unsigned long flags = lockorder_msg_start();

	lockorder_msg_add(
		"lockorder: recursive acquisition: %s/%d takes %s%s at %pS, which it holds%s since %pS\n",
		current->comm, current->pid, r->class->name,
		lockorder_rw(r->read), (void *)r->ip,
		lockorder_rw(r->held->read), (void *)r->held->ip);
	lockorder_msg_warn(r->ip, flags);
}

/*
 * True if every class lt holds names class in its last_to[]: each has a
 * recorded edge to it, and the search would pass it. Lock-free: edges are
 * never removed, and the graph without inversions stays acyclic, so no
 * path back from class can appear later.
 */
static bool lockorder_orders_cached(const struct lockorder_task *lt,
				    const struct lock_class *class)
{
	const struct lock_class *held;
	unsigned int i;

	for (i = 0; i < lt->depth; i++) {
		held = lt->held[i].class;
		if (READ_ONCE(held->last_to[0]) != class &&
		    READ_ONCE(held->last_to[1]) != class)
			return false;
	}
	return true;
}

/*
 * Searches the graph for class on top of lt's stack, under the lock, and
 * reports what it found. True if everything held was found in order.
 */
static noinline bool lockorder_check_locked(struct lockorder_task *lt,
					    struct lockorder_map *map,
					    struct lock_class *class,
					    unsigned long ip, bool read)
{
	struct lockorder_report r = {
		.class = class,
		.ip = ip,
		.read = read,
	};
	unsigned long flags;
	bool ok;

	lt->nr_checks++;
	flags = lockorder_lock_irqsave();
	ok = lockorder_check_graph(lt, map, class, ip, &r);
	lockorder_unlock_irqrestore(flags);
	if (r.kind == LOCKORDER_INVERSION)
		lockorder_print_inversion(&r);
	else if (r.kind == LOCKORDER_RECURSION)
		lockorder_print_recursion(&r);
	return ok;
}

/*
 * The chain of held[0..d) with class on top: the class alone at the
 * bottom, then the chain below times an odd constant, plus the class.
 * Never 0 in practice (an empty slot of chains[]), not even for a class
 * on top of itself, which a mix by xor would make 0.
 */
static __always_inline unsigned long
lockorder_chain(const struct lockorder_task *lt, unsigned int d,
		const struct lock_class *class)
{
	if (!d)
		return (unsigned long)class;
	return lt->held[d - 1].chain * 0x9e3779b97f4a7c15UL +
	       (unsigned long)class;
}

/* class was found in order on top of a stack of this chain. */
static void lockorder_note_chain(struct lock_class *class, unsigned long chain)
{
	if (READ_ONCE(class->chains[0]) == chain)
		return;
	WRITE_ONCE(class->chains[1], READ_ONCE(class->chains[0]));
	WRITE_ONCE(class->chains[0], chain);
}

/* class is new on top of lt's stack: check it, remember it if in order. */
static void lockorder_check(struct lockorder_task *lt,
			    struct lockorder_map *map, struct lock_class *class,
			    unsigned long ip, bool read, unsigned long chain)
{
	if (lockorder_orders_cached(lt, class) ||
	    lockorder_check_locked(lt, map, class, ip, read))
		lockorder_note_chain(class, chain);
}

/* True if class was found in order on a stack of this chain. */
static __always_inline bool
lockorder_chain_known(const struct lock_class *class, unsigned long chain)
{
	return READ_ONCE(class->chains[0]) == chain ||
	       READ_ONCE(class->chains[1]) == chain;
}

/* The held array is full: stop tracking the task, say it once. */
static void lockorder_overflow(struct lockorder_task *lt,
			       struct lock_class *class, unsigned long ip)
{
	lt->off = true;
	WARN(1,
	     "lockorder: %s/%d holds more than %d locks, taking %s at %pS: lock order checks are off for this task\n",
	     current->comm, current->pid, LOCKORDER_MAX_HELD, class->name,
	     (void *)ip);
}

static void lockorder_push(struct lockorder_task *lt, struct lockorder_map *map,
			   struct lock_class *class, unsigned long ip,
			   unsigned int flags, unsigned long chain)
{
	struct lockorder_held *h = &lt->held[lt->depth++];

	h->map = map;
	h->class = class;
	h->ip = ip;
	h->chain = chain;
	h->read = flags & LOCKORDER_READ;
}

/* Whatever the fast path leaves: a first use, a check, an overflow. */
static noinline void lockorder_acquire_slow(struct lockorder_task *lt,
					    struct lockorder_map *map,
					    unsigned long ip,
					    unsigned int flags)
{
	struct lock_class *class = READ_ONCE(map->class);
	unsigned long chain;

	if (in_interrupt() || lt->off)
		return;
	if (!class)
		class = lockorder_register(map);
	if (class == &lockorder_untracked)
		return;
	chain = lockorder_chain(lt, lt->depth, class);
	if (lt->depth && !(flags & LOCKORDER_TRY) &&
	    !lockorder_chain_known(class, chain))
		lockorder_check(lt, map, class, ip, flags & LOCKORDER_READ,
				chain);
	if (lt->depth == LOCKORDER_MAX_HELD)
		lockorder_overflow(lt, class, ip);
	else
		lockorder_push(lt, map, class, ip, flags, chain);
}

/*
 * class was not taken on a stack of this chain yet: in order without the
 * lock if every held class names it in its last_to[], else the slow path.
 * Out of line, so that the fast path needs no frame.
 */
static noinline void lockorder_acquire_new(struct lockorder_task *lt,
					   struct lockorder_map *map,
					   struct lock_class *class,
					   unsigned long ip, unsigned int flags,
					   unsigned long chain)
{
	if (unlikely(!lockorder_orders_cached(lt, class))) {
		lockorder_acquire_slow(lt, map, ip, flags);
		return;
	}
	lockorder_note_chain(class, chain);
	lockorder_push(lt, map, class, ip, flags, chain);
}

/*
 * The fast path pushes an entry when the class is known and tracked, the
 * task tracked, there is room, and nothing is held, or class was found in
 * order on a stack of this chain before (or this is a trylock).
 */
void __lockorder_acquire(struct lockorder_map *map, unsigned long ip,
			 unsigned int flags)
{
	struct lockorder_task *lt = &current->lockorder;
	struct lock_class *class = READ_ONCE(map->class);
	unsigned int d = lt->depth;
	unsigned long chain;

	if (unlikely(!class || class == &lockorder_untracked ||
		     in_interrupt() || lt->off || d == LOCKORDER_MAX_HELD)) {
		lockorder_acquire_slow(lt, map, ip, flags);
		return;
	}
	chain = lockorder_chain(lt, d, class);
	if (d && !(flags & LOCKORDER_TRY) &&
	    !lockorder_chain_known(class, chain)) {
		lockorder_acquire_new(lt, map, class, ip, flags, chain);
		return;
	}
	lockorder_push(lt, map, class, ip, flags, chain);
}

static noinline void lockorder_release_slow(struct lockorder_task *lt,
					    struct lockorder_map *map,
					    unsigned long ip)
{
	unsigned int i = lt->depth;

	if (in_interrupt() || lt->off ||
	    READ_ONCE(map->class) == &lockorder_untracked)
		return;
	while (i--) {
		if (lt->held[i].map != map)
			continue;
		/* Out of order: the ones above move down, chains anew. */
		lt->depth--;
		memmove(&lt->held[i], &lt->held[i + 1],
			(lt->depth - i) * sizeof(lt->held[0]));
		for (; i < lt->depth; i++)
			lt->held[i].chain =
				lockorder_chain(lt, i, lt->held[i].class);
		return;
	}
	WARN_ONCE(
		1,
		"lockorder: %s/%d releases %s at %pS, which it does not hold\n",
		current->comm, current->pid, map->name, (void *)ip);
}

/*
 * The fast path: the lock is the newest the task holds. A task that is
 * off may pop too: from then on nothing reads its entries.
 */
void lockorder_release(struct lockorder_map *map, unsigned long ip)
{
	struct lockorder_task *lt = &current->lockorder;
	unsigned int d = lt->depth;

	if (unlikely(!d || lt->held[d - 1].map != map || in_interrupt())) {
		lockorder_release_slow(lt, map, ip);
		return;
	}
	lt->depth = d - 1;
}

bool lockorder_is_held(const struct lockorder_map *map)
{
	const struct lockorder_task *lt = &current->lockorder;
	unsigned int i;

	if (in_interrupt() || lt->off ||
	    READ_ONCE(map->class) == &lockorder_untracked)
		return true;
	for (i = 0; i < lt->depth; i++)
		if (lt->held[i].map == map)
			return true;
	return false;
}

unsigned int lockorder_depth(void)
{
	const struct lockorder_task *lt = &current->lockorder;

	return lt->off ? 0 : lt->depth;
}

/* lockorder_lock held: marks the classes lt holds; true if one was new. */
static bool lockorder_mark_exit(struct lockorder_task *lt)
{
	bool news = false;
	unsigned int i;

	for (i = 0; i < lt->depth; i++) {
		news |= !lt->held[i].class->exit_reported;
		lt->held[i].class->exit_reported = true;
	}
	return news;
}

void lockorder_task_exit(void)
{
	struct lockorder_task *lt = &current->lockorder;
	unsigned long flags;
	unsigned int i;
	bool news;

	if (lt->off || !lt->depth)
		return;
	flags = lockorder_lock_irqsave();
	news = lockorder_mark_exit(lt);
	lockorder_unlock_irqrestore(flags);
	if (news) {
		flags = lockorder_msg_start();
		lockorder_msg_add("lockorder: %s/%d exits holding %u lock%s:\n",
				  current->comm, current->pid, lt->depth,
				  lt->depth > 1 ? "s" : "");
		for (i = 0; i < lt->depth; i++)
			lockorder_msg_add(" %s%s taken at %pS\n",
					  lt->held[i].class->name,
					  lockorder_rw(lt->held[i].read),
					  (void *)lt->held[i].ip);
		lockorder_msg_warn(lt->held[lt->depth - 1].ip, flags);
	}
	lt->depth = 0;
}

bool lockorder_order_recorded(const struct lockorder_map *from,
			      const struct lockorder_map *to)
{
	struct lockorder_edge *e = NULL;
	unsigned long flags;

	if (!from->class || !to->class)
		return false;
	flags = lockorder_lock_irqsave();
	e = lockorder_find_edge(from->class, to->class);
	lockorder_unlock_irqrestore(flags);
	return e && !e->inversion;
}

unsigned long lockorder_nr_checks(void)
{
	return current->lockorder.nr_checks;
}

unsigned int lockorder_nr_classes(void)
{
	return READ_ONCE(nr_classes);
}

unsigned int lockorder_nr_edges(void)
{
	return READ_ONCE(nr_edges);
}

/* Sets a table's limit (capped at its size) and rearms its "full" report. */
static unsigned int lockorder_set_max(unsigned int *limit, unsigned int size,
				      bool *full_said, unsigned int max)
{
	unsigned long flags = lockorder_lock_irqsave();
	unsigned int old = *limit;

	*limit = min(max, size);
	*full_said = false;
	lockorder_unlock_irqrestore(flags);
	return old;
}

unsigned int lockorder_set_max_classes(unsigned int max)
{
	return lockorder_set_max(&max_classes, LOCKORDER_MAX_CLASSES,
				 &classes_full_said, max);
}

unsigned int lockorder_set_max_edges(unsigned int max)
{
	return lockorder_set_max(&max_edges, LOCKORDER_MAX_EDGES,
				 &edges_full_said, max);
}
