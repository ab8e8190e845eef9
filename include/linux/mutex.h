/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_MUTEX_H
#define _LINUX_MUTEX_H

#include <linux/atomic.h>
#include <linux/bug.h>
#include <linux/compiler.h>
#include <linux/smp.h>

/*
 * A sleeping lock's interface over a test-and-test-and-set lock: there is
 * no scheduler yet, so a contended mutex spins (with interrupts as they
 * are: a waiter keeps taking IPIs if they are enabled). Taking a mutex the
 * same CPU already holds is a deadlock in Linux; here it is a panic naming
 * the lock. owner is the holder's CPU + 1, 0 when free; only the holder
 * writes it.
 *
 * The holder runs with preemption disabled from mutex_lock() to
 * mutex_unlock() (so owner, a CPU number, stays right): a waiter spinning
 * on another CPU must see the lock released in bounded time, which a
 * preempted holder could not promise while waiters spin instead of
 * sleeping. So no sleeping (schedule(), msleep()) under a mutex for now.
 */
struct mutex {
	atomic_t locked;
	unsigned int owner;
	const char *name;
	unsigned long owner_ip; /* where the holder took it, for the panic */
};

#define __MUTEX_INITIALIZER(lockname) \
	{ .locked = ATOMIC_INIT(0), .name = #lockname }
#define DEFINE_MUTEX(lockname) \
	struct mutex lockname = __MUTEX_INITIALIZER(lockname)

void mutex_lock(struct mutex *lock);
void mutex_unlock(struct mutex *lock);
bool mutex_is_locked(struct mutex *lock);
/* True if this CPU holds lock. */
static inline bool mutex_is_owner(struct mutex *lock)
{
	return READ_ONCE(lock->owner) == smp_processor_id() + 1;
}

/* WARNs once per call site, naming the lock, if this CPU does not hold it. */
#define lockdep_assert_held(l)                                              \
	WARN_ONCE(!mutex_is_owner(l), "lockdep: %s not held by CPU%u\n",    \
		  (l)->name, smp_processor_id())

#endif /* _LINUX_MUTEX_H */
