/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_SPINLOCK_H
#define _LINUX_SPINLOCK_H

#include <linux/compiler.h>
#include <linux/irqflags.h>
#include <linux/preempt.h>
#include <linux/smp.h>
#include <linux/types.h>
#include <asm/processor.h>

/*
 * Spinlocks: test-and-test-and-set. A waiter spins reading the lock (its
 * cache line stays shared) and tries the atomic exchange only once it saw
 * the lock free. Not fair, but a waiter never waits for one particular
 * other waiter to run, which matters when virtual CPUs share host CPUs.
 *
 * owner is the holder's CPU number + 1 (0: free or being taken); only the
 * holder writes it, so a CPU that reads its own number holds the lock and
 * spinning would never end: spin_lock() panics instead. All zeroes is an
 * unlocked lock.
 *
 * A lock an interrupt handler (or a call-function func) may take must be
 * taken with interrupts disabled everywhere: spin_lock_irqsave().
 *
 * spin_lock() and friends disable preemption until the matching unlock,
 * so the holder is never switched away from while others spin. The
 * do_raw_spin_*() forms leave the preempt count alone: the scheduler uses
 * them for its run-queue locks, whose holder switches tasks.
 */
typedef struct {
	u32 locked;
	u32 owner;
} spinlock_t;

#define __SPIN_LOCK_UNLOCKED(name)      \
	{                               \
		.locked = 0, .owner = 0 \
	}
#define DEFINE_SPINLOCK(name) spinlock_t name = __SPIN_LOCK_UNLOCKED(name)

static inline void spin_lock_init(spinlock_t *lock)
{
	WRITE_ONCE(lock->owner, 0);
	__atomic_store_n(&lock->locked, 0, __ATOMIC_RELEASE);
}

static inline bool spin_is_locked(spinlock_t *lock)
{
	return __atomic_load_n(&lock->locked, __ATOMIC_RELAXED);
}

/* True if this CPU holds lock. */
static inline bool spin_held_by_this_cpu(spinlock_t *lock)
{
	return READ_ONCE(lock->owner) == smp_processor_id() + 1;
}

/* Takes lock if it is free: true if taken, with acquire ordering. */
static inline bool do_raw_spin_trylock(spinlock_t *lock)
{
	if (spin_is_locked(lock) ||
	    __atomic_exchange_n(&lock->locked, 1, __ATOMIC_ACQUIRE))
		return false;
	WRITE_ONCE(lock->owner, smp_processor_id() + 1);
	return true;
}

void spin_lock_slowpath(spinlock_t *lock);

static inline void do_raw_spin_lock(spinlock_t *lock)
{
	if (unlikely(!do_raw_spin_trylock(lock)))
		spin_lock_slowpath(lock);
}

/* Releases lock: everything written before is seen by the next holder. */
static inline void do_raw_spin_unlock(spinlock_t *lock)
{
	WRITE_ONCE(lock->owner, 0);
	__atomic_store_n(&lock->locked, 0, __ATOMIC_RELEASE);
}

static inline bool spin_trylock(spinlock_t *lock)
{
	preempt_disable();
	if (do_raw_spin_trylock(lock))
		return true;
	preempt_enable();
	return false;
}

static inline void spin_lock(spinlock_t *lock)
{
	preempt_disable();
	do_raw_spin_lock(lock);
}

static inline void spin_unlock(spinlock_t *lock)
{
	do_raw_spin_unlock(lock);
	preempt_enable();
}

static inline void spin_lock_irq(spinlock_t *lock)
{
	local_irq_disable();
	spin_lock(lock);
}

static inline void spin_unlock_irq(spinlock_t *lock)
{
	do_raw_spin_unlock(lock);
	local_irq_enable();
	preempt_enable();
}

#define spin_lock_irqsave(lock, flags) \
	do {                           \
		local_irq_save(flags); \
		spin_lock(lock);       \
	} while (0)

static inline void spin_unlock_irqrestore(spinlock_t *lock, unsigned long flags)
{
	do_raw_spin_unlock(lock);
	local_irq_restore(flags);
	preempt_enable();
}

#endif /* _LINUX_SPINLOCK_H */
