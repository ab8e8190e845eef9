/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_TIMER_H
#define _LINUX_TIMER_H

#include <linux/init.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/types.h>

/*
 * Timers: run a function once, at a jiffy (Linux's API). A timer belongs
 * to the CPU that armed it (add_timer(), mod_timer()) or the one named
 * (add_timer_on()), and its function runs there:
 *
 *   - from that CPU's tick interrupt, after the acknowledgement, with
 *     interrupts enabled and no lock held, on the interrupt's stack; like
 *     Linux's timer softirq, it may interrupt any code of that CPU that
 *     runs with interrupts enabled. So data a callback shares with other
 *     code must be locked with interrupts disabled in that code
 *     (spin_lock_irqsave()), and a callback must not sleep or wait for
 *     the code it interrupted;
 *   - one callback at a time on a CPU: callbacks never nest, though
 *     other interrupts (a tick included) may arrive during one;
 *   - never before its expiry: the tick that runs it has seen jiffies
 *     reach timer->expires. Late by less than 8/63 (13%) of the delay it
 *     was armed with (not at all below 64 jiffies), plus the tick's own
 *     delay: see Documentation/time.rst for the wheel's levels;
 *   - a timer is never run on two CPUs at once: mod_timer() leaves a
 *     running timer on its CPU (add_timer_on() does not: don't).
 *
 * All functions may be called from any context, interrupts enabled or
 * not, a callback included (its own timer too: re-arming from the
 * callback is the way to run periodically). The exception is
 * del_timer_sync(), which waits.
 *
 * Return values follow Linux: mod_timer() and the del_timer*() return 1 if
 * the timer was pending (armed and not yet started), else 0.
 *
 * With tick=off on the command line timers are queued but never run.
 */
struct timer_list {
	struct hlist_node entry; /* in a wheel slot while pending */
	unsigned long expires; /* the jiffy it is due at */
	void (*function)(struct timer_list *);
	u32 flags;
	/* private: */
	u32 cpu; /* the CPU whose base holds it, or TIMER_CPU_MIGRATING */
	u32 idx; /* its wheel slot while pending */
};

/*
 * Accepted for Linux's callers; neither changes anything yet: every timer
 * stays on the CPU it was armed on, and the tick never stops.
 */
#define TIMER_DEFERRABLE 0x1
#define TIMER_PINNED 0x2

#define TIMER_CPU_MIGRATING UINT_MAX

/* An inactive timer calling callback; flags is TIMER_* or 0. */
void __timer_setup(struct timer_list *timer,
		   void (*callback)(struct timer_list *), unsigned int flags);
#define timer_setup(timer, callback, flags) \
	__timer_setup((timer), (callback), (flags))

/* A static inactive timer, on CPU 0 until armed. */
#define DEFINE_TIMER(_name, _function)                           \
	struct timer_list _name = {                              \
		.entry = { .next = NULL, .pprev = NULL },        \
		.function = (_function),                         \
		.cpu = 0,                                        \
	}

/* The structure holding the timer that calls back, as container_of(). */
#define from_timer(var, callback_timer, timer_fieldname) \
	container_of(callback_timer, typeof(*var), timer_fieldname)

/* True if armed and its callback not yet started. A hint unless locked. */
static inline int timer_pending(const struct timer_list *timer)
{
	return !hlist_unhashed(&timer->entry);
}

/* Arms an inactive timer for timer->expires on this CPU. */
void add_timer(struct timer_list *timer);
/* Arms an inactive timer for timer->expires on online CPU cpu. */
void add_timer_on(struct timer_list *timer, int cpu);
/*
 * (Re)arms the timer for expires on this CPU, pending or not; if its
 * callback is running on another CPU, it stays on that CPU. Returns 1 if
 * it was pending.
 */
int mod_timer(struct timer_list *timer, unsigned long expires);
/* Disarms the timer; a callback already running goes on. */
int del_timer(struct timer_list *timer);
/* del_timer() unless the callback is running: then -1, nothing done. */
int try_to_del_timer_sync(struct timer_list *timer);
/*
 * Disarms the timer and waits until its callback is not running on any
 * CPU: on return it runs nowhere, unless re-armed by someone else. Any
 * context but one: the timer's own callback (or an interrupt on top of
 * it) would wait for itself, so there it warns once, with the caller,
 * and only disarms.
 */
int del_timer_sync(struct timer_list *timer);

/* Every CPU's wheel; once, on the boot CPU, before time_init(). */
void __init init_timers(void);
/*
 * CPU hotplug: a CPU's base is made ready before it starts (empty, its
 * clock at jiffies); once it is dead its timers move to this CPU's base,
 * each due when it was. 0.
 */
int timers_prepare_cpu(unsigned int cpu);
int timers_dead_cpu(unsigned int cpu);
/* From the tick, interrupts disabled: runs this CPU's due timers. */
void run_local_timers(void);

#endif /* _LINUX_TIMER_H */
