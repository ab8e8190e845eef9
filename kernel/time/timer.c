// SPDX-License-Identifier: GPL-2.0
/*
 * Timers (<linux/timer.h>) on a per-CPU hierarchical wheel without
 * cascading (<linux/timer_wheel.h> has the geometry).
 *
 * Each CPU's base has 8 levels of 64 slots; a slot of level n spans 8^n
 * jiffies, its granularity. base->clk is the next jiffy the base runs;
 * running jiffy j means taking every timer from level 0's slot j % 64 and,
 * for each level n whose granularity divides j, from slot (j >> 3n) % 64.
 * That is one slot a jiffy, 8 at most, 8/7 on average, whatever the number
 * of timers; a bitmap of non-empty slots per level makes an empty slot one
 * bit test. Adding or deleting a timer is O(1): a list insert or unlink.
 *
 * Placing a timer due at e (see wheel_index()):
 *   1. a past e counts as clk;
 *   2. take the first level n whose reach covers e: with g = 8^n, the
 *      level's next run is ceil(clk / g) in its own slot units, and e
 *      rounded up, r = ceil(e / g), must be less than 64 slots after it;
 *   3. the timer goes in slot r % 64 of level n, which comes round next
 *      on jiffy r * g: never before e, and less than g after it.
 * A timer beyond level 7's reach is parked in level 7's farthest slot and
 * queued again from there when that slot runs, so no timer ever runs
 * early. Level n >= 1 is chosen only for delays of 63 * 8^(n-1) jiffies
 * or more, so the lateness is below 8/63 of the delay.
 *
 * Locking: base->lock, taken with interrupts disabled, guards the base
 * and every timer on it (entry, expires, idx). timer->cpu names that base;
 * it changes only under the old base's lock, and reads
 * TIMER_CPU_MIGRATING until the new base is locked. Callbacks run with
 * the lock dropped; base->running_timer names the one running, which
 * del_timer_sync() waits for and mod_timer() does not move away.
 */
#include <linux/kernel.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/irqflags.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timer.h>
#include <linux/timer_wheel.h>
#include <trace/events/timer.h>

#define WHEEL_SLOT_MASK (WHEEL_SLOTS - 1)
#define TIMER_FLAGS (TIMER_DEFERRABLE | TIMER_PINNED)

struct timer_base {
	spinlock_t lock;
	unsigned long clk; /* the next jiffy to run */
	struct timer_list *running_timer;
	void (*running_fn)(struct timer_list *); /* its function */
	/* run_timers()' heads taken from the wheel, not run yet: n of them. */
	struct hlist_head *expiring;
	unsigned int n_expiring;
	bool running; /* in run_timers(): this CPU only, interrupts off */
	unsigned int cpu;
	struct timer_stats stats;
	u64 pending[WHEEL_LEVELS]; /* bit s: slot s is not empty */
	struct hlist_head slots[WHEEL_LEVELS * WHEEL_SLOTS];
};

static DEFINE_PER_CPU(struct timer_base, timer_bases);

/* Steps 1-3 of the top: the slot (level * 64 + slot) and its run. */
static unsigned int wheel_index(unsigned long clk, unsigned long expires,
				unsigned long *run_at)
{
	unsigned int lvl, shift = 0;
	unsigned long next = clk, r = expires;

	if (time_before(expires, clk))
		expires = clk;
	for (lvl = 0; lvl < WHEEL_LEVELS; lvl++) {
		shift = WHEEL_GRAN_SHIFT(lvl);
		next = (clk + WHEEL_GRAN(lvl) - 1) >> shift;
		r = (expires + WHEEL_GRAN(lvl) - 1) >> shift;
		if (r - next < WHEEL_SLOTS)
			break;
	}
	if (lvl == WHEEL_LEVELS) { /* beyond the wheel: park it */
		lvl--;
		r = next + WHEEL_SLOTS - 1;
	}
	*run_at = r << shift;
	return lvl * WHEEL_SLOTS + (r & WHEEL_SLOT_MASK);
}

unsigned long timer_wheel_run_at(unsigned long clk, unsigned long expires,
				 unsigned int *level)
{
	unsigned long run_at;

	*level = wheel_index(clk, expires, &run_at) / WHEEL_SLOTS;
	return run_at;
}

const struct timer_stats *timer_cpu_stats(unsigned int cpu)
{
	return &per_cpu_ptr(&timer_bases, cpu)->stats;
}

static void enqueue_timer(struct timer_base *base, struct timer_list *timer)
{
	unsigned long run_at;
	unsigned int idx = wheel_index(base->clk, timer->expires, &run_at);

	timer->idx = idx;
	hlist_add_head(&timer->entry, &base->slots[idx]);
	base->pending[idx / WHEEL_SLOTS] |= 1ULL << (idx & WHEEL_SLOT_MASK);
}

/* Unlinks the timer if pending; true if it was. Lock held. */
static bool detach_if_pending(struct timer_base *base,
			      struct timer_list *timer)
{
	unsigned int idx = timer->idx;

	if (!timer_pending(timer))
		return false;
	/* It may be on run_timers()' list of due timers instead: fine. */
	hlist_del_init(&timer->entry);
	if (hlist_empty(&base->slots[idx]))
		base->pending[idx / WHEEL_SLOTS] &= ~(1ULL << (idx & WHEEL_SLOT_MASK));
	return true;
}

/*
 * Locks the base the timer is on and returns it, interrupts disabled
 * (the previous state in *flags). Waits while the timer moves.
 */
static struct timer_base *lock_timer_base(struct timer_list *timer,
					  unsigned long *flags)
{
	for (;;) {
		unsigned int cpu = READ_ONCE(timer->cpu);

		if (cpu != TIMER_CPU_MIGRATING) {
			struct timer_base *base = per_cpu_ptr(&timer_bases, cpu);

			spin_lock_irqsave(&base->lock, *flags);
			if (READ_ONCE(timer->cpu) == cpu)
				return base;
			spin_unlock_irqrestore(&base->lock, *flags);
		}
		cpu_relax();
	}
}

/* Moves a detached timer from locked base to new: returns new, locked. */
static struct timer_base *switch_timer_base(struct timer_list *timer,
					    struct timer_base *base,
					    struct timer_base *new)
{
	WRITE_ONCE(timer->cpu, TIMER_CPU_MIGRATING);
	spin_unlock(&base->lock);
	spin_lock(&new->lock);
	WRITE_ONCE(timer->cpu, new->cpu);
	return new;
}

void __timer_setup(struct timer_list *timer,
		   void (*callback)(struct timer_list *), unsigned int flags)
{
	WARN_ON_ONCE(flags & ~TIMER_FLAGS);
	INIT_HLIST_NODE(&timer->entry);
	timer->expires = 0;
	timer->function = callback;
	timer->flags = flags & TIMER_FLAGS;
	timer->cpu = raw_smp_processor_id();
	timer->idx = 0;
}
EXPORT_SYMBOL(__timer_setup);

int mod_timer(struct timer_list *timer, unsigned long expires)
{
	struct timer_base *base, *new;
	unsigned long flags;
	int ret;

	if (WARN_ON_ONCE(!timer->function))
		return 0;
	/* Already there: nothing to move (a hint, as in Linux). */
	if (timer_pending(timer) && READ_ONCE(timer->expires) == expires)
		return 1;
	base = lock_timer_base(timer, &flags);
	ret = detach_if_pending(base, timer);
	new = this_cpu_ptr(&timer_bases);
	if (base != new && base->running_timer != timer)
		base = switch_timer_base(timer, base, new);
	timer->expires = expires;
	enqueue_timer(base, timer);
	spin_unlock_irqrestore(&base->lock, flags);
	return ret;
}
EXPORT_SYMBOL(mod_timer);

void add_timer(struct timer_list *timer)
{
	if (WARN_ON_ONCE(timer_pending(timer)))
		return;
	mod_timer(timer, timer->expires);
}
EXPORT_SYMBOL(add_timer);

void add_timer_on(struct timer_list *timer, int cpu)
{
	struct timer_base *base, *new;
	unsigned long flags;

	if (WARN_ON_ONCE(timer_pending(timer) || !timer->function ||
			 cpu < 0 || !cpu_online(cpu)))
		return;
	new = per_cpu_ptr(&timer_bases, cpu);
	base = lock_timer_base(timer, &flags);
	detach_if_pending(base, timer); /* armed meanwhile: move it */
	if (base != new)
		base = switch_timer_base(timer, base, new);
	/*
	 * Checked under cpu's lock: offline now, its timers may have moved
	 * already, so this one stays here; online, they move later with it.
	 */
	if (!cpu_online(cpu) && base != this_cpu_ptr(&timer_bases))
		base = switch_timer_base(timer, base,
					 this_cpu_ptr(&timer_bases));
	enqueue_timer(base, timer);
	spin_unlock_irqrestore(&base->lock, flags);
}
EXPORT_SYMBOL_GPL(add_timer_on);

int del_timer(struct timer_list *timer)
{
	struct timer_base *base;
	unsigned long flags;
	int ret;

	if (!timer_pending(timer))
		return 0;
	base = lock_timer_base(timer, &flags);
	ret = detach_if_pending(base, timer);
	spin_unlock_irqrestore(&base->lock, flags);
	return ret;
}
EXPORT_SYMBOL(del_timer);

/*
 * del_timer() unless the callback is running: then -1, and *self says
 * whether it runs on this CPU, i.e. under the caller.
 */
static int __try_to_del_timer_sync(struct timer_list *timer, bool *self)
{
	struct timer_base *base;
	unsigned long flags;
	int ret = -1;

	base = lock_timer_base(timer, &flags);
	if (base->running_timer != timer)
		ret = detach_if_pending(base, timer);
	else
		*self = base == this_cpu_ptr(&timer_bases);
	spin_unlock_irqrestore(&base->lock, flags);
	return ret;
}

int try_to_del_timer_sync(struct timer_list *timer)
{
	bool self;

	return __try_to_del_timer_sync(timer, &self);
}
EXPORT_SYMBOL(try_to_del_timer_sync);

int del_timer_sync(struct timer_list *timer)
{
	bool self = false;
	int ret;

	while ((ret = __try_to_del_timer_sync(timer, &self)) < 0) {
		if (self) {
			WARN_ONCE(1, "timer: del_timer_sync() from %ps's own callback would wait for itself; called from %pS\n",
				  timer->function, (void *)_RET_IP_);
			return del_timer(timer);
		}
		/* The callback may wait for this CPU: take its IPIs. */
		smp_wait_relax();
	}
	return ret;
}
EXPORT_SYMBOL(del_timer_sync);

/* Moves jiffy clk's due slots to heads; returns how many. Lock held. */
static unsigned int collect_expired(struct timer_base *base,
				    unsigned long clk, struct hlist_head *heads)
{
	unsigned int lvl, n = 0;

	for (lvl = 0; lvl < WHEEL_LEVELS; lvl++) {
		unsigned int slot = (clk >> WHEEL_GRAN_SHIFT(lvl)) &
				    WHEEL_SLOT_MASK;

		if (lvl && (clk & (WHEEL_GRAN(lvl) - 1)))
			break; /* nor any coarser level */
		base->stats.slots_visited++;
		if (!(base->pending[lvl] & (1ULL << slot)))
			continue;
		base->pending[lvl] &= ~(1ULL << slot);
		hlist_move_list(&base->slots[lvl * WHEEL_SLOTS + slot],
				&heads[n++]);
	}
	return n;
}

/*
 * Runs the timers of head, taken from jiffy clk's slots, one at a time,
 * the lock dropped and interrupts enabled around each callback. Others may
 * unlink timers from head meanwhile (under the lock).
 */
static void expire_timers(struct timer_base *base, unsigned long clk,
			  struct hlist_head *head)
{
	while (!hlist_empty(head)) {
		struct timer_list *timer =
			hlist_entry(head->first, struct timer_list, entry);
		void (*fn)(struct timer_list *) = timer->function;

		hlist_del_init(&timer->entry);
		if (time_after(timer->expires, clk)) { /* parked: not due */
			enqueue_timer(base, timer);
			base->stats.requeued++;
			continue;
		}
		base->running_timer = timer;
		base->running_fn = fn;
		base->stats.expired++;
		spin_unlock_irq(&base->lock);
		trace_timer_expire_entry(timer, clk);
		fn(timer); /* may free the timer */
		trace_timer_expire_exit(timer);
		spin_lock_irq(&base->lock);
		base->running_timer = NULL;
	}
}

/* Runs every jiffy up to jiffies. Interrupts enabled on entry and exit. */
static void run_timers(struct timer_base *base)
{
	struct hlist_head heads[WHEEL_LEVELS];
	unsigned int i, n;
	unsigned long clk;

	spin_lock_irq(&base->lock);
	while (time_after_eq(jiffies, base->clk)) {
		clk = base->clk++;
		base->stats.jiffies_run++;
		n = collect_expired(base, clk, heads);
		base->expiring = heads;
		base->n_expiring = n;
		for (i = 0; i < n; i++)
			expire_timers(base, clk, &heads[i]);
		base->n_expiring = 0;
	}
	spin_unlock_irq(&base->lock);
}

/* The first timer of head whose struct or function lies in mod. */
static struct timer_list *timer_in_list(struct hlist_head *head,
					const struct module *mod)
{
	struct hlist_node *n;
	struct timer_list *t;

	for (n = head->first; n; n = n->next) {
		t = hlist_entry(n, struct timer_list, entry);
		if (within_module((unsigned long)t, mod) ||
		    within_module((unsigned long)t->function, mod))
			return t;
	}
	return NULL;
}

/* One base under its lock: pending, taken to expire, or running. */
static bool base_points_into(struct timer_base *base, const struct module *mod,
			     char *buf, size_t len)
{
	struct timer_list *t = NULL;
	unsigned int i, lvl;
	u64 slots;

	if (base->running_timer &&
	    (within_module((unsigned long)base->running_timer, mod) ||
	     within_module((unsigned long)base->running_fn, mod))) {
		snprintf(buf, len, "a running timer (%ps, on CPU %u)",
			 base->running_fn, base->cpu);
		return true;
	}
	/* The slots that hold a timer: each level's pending bits. */
	for (lvl = 0; lvl < WHEEL_LEVELS && !t; lvl++)
		for (slots = base->pending[lvl]; slots && !t;
		     slots &= slots - 1)
			t = timer_in_list(&base->slots[lvl * WHEEL_SLOTS +
						       __builtin_ctzll(slots)],
					  mod);
	for (i = 0; i < base->n_expiring && !t; i++)
		t = timer_in_list(&base->expiring[i], mod);
	if (t)
		snprintf(buf, len, "a pending timer (%ps, timer at %px)",
			 t->function, t);
	return t;
}

bool timers_point_into(const struct module *mod, char *buf, size_t len)
{
	struct timer_base *base;
	unsigned long flags;
	unsigned int cpu;
	bool found = false;

	for (cpu = 0; cpu < NR_CPUS && !found; cpu++) {
		if (!cpu_possible(cpu))
			continue;
		base = per_cpu_ptr(&timer_bases, cpu);
		spin_lock_irqsave(&base->lock, flags);
		found = base_points_into(base, mod, buf, len);
		spin_unlock_irqrestore(&base->lock, flags);
	}
	return found;
}

void run_local_timers(void)
{
	struct timer_base *base = this_cpu_ptr(&timer_bases);

	/* Nested in a callback: the run below picks the new jiffies up. */
	if (base->running || time_before(jiffies, base->clk))
		return;
	base->running = true;
	local_irq_enable();
	run_timers(base);
	local_irq_disable();
	base->running = false;
}

int timers_prepare_cpu(unsigned int cpu)
{
	struct timer_base *base = per_cpu_ptr(&timer_bases, cpu);
	unsigned long flags;

	spin_lock_irqsave(&base->lock, flags);
	base->clk = jiffies;
	base->running = false;
	base->running_timer = NULL;
	spin_unlock_irqrestore(&base->lock, flags);
	return 0;
}

/* Both locks held: every timer of old goes to new, in no special order. */
static unsigned int migrate_timers(struct timer_base *old,
				   struct timer_base *new)
{
	unsigned int idx, n = 0;

	for (idx = 0; idx < WHEEL_LEVELS * WHEEL_SLOTS; idx++) {
		struct hlist_head *head = &old->slots[idx];

		while (!hlist_empty(head)) {
			struct timer_list *timer = hlist_entry(
				head->first, struct timer_list, entry);

			hlist_del_init(&timer->entry);
			WRITE_ONCE(timer->cpu, new->cpu);
			enqueue_timer(new, timer);
			n++;
		}
	}
	memset(old->pending, 0, sizeof(old->pending));
	return n;
}

int timers_dead_cpu(unsigned int cpu)
{
	struct timer_base *old = per_cpu_ptr(&timer_bases, cpu);
	struct timer_base *new;
	unsigned long flags;

	/* The dead CPU runs nothing: no callback of old is running. */
	local_irq_save(flags);
	new = this_cpu_ptr(&timer_bases);
	spin_lock(&new->lock);
	spin_lock(&old->lock);
	new->stats.migrated += migrate_timers(old, new);
	spin_unlock(&old->lock);
	spin_unlock(&new->lock);
	local_irq_restore(flags);
	return 0;
}

void __init init_timers(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct timer_base *base = per_cpu_ptr(&timer_bases, cpu);

		spin_lock_init(&base->lock);
		base->cpu = cpu;
		base->clk = jiffies;
	}
}
