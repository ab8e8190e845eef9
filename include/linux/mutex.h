/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_MUTEX_H
#define _LINUX_MUTEX_H

#include <linux/atomic.h>
#include <linux/bug.h>
#include <linux/compiler.h>
#include <linux/list.h>
#include <linux/lockorder.h>
#include <linux/sched.h>
#include <linux/spinlock.h>

/*
 * A sleeping lock with an owner (Documentation/sched.rst).
 *
 * owner is the holder's task_struct, 0 when free; it changes only by an
 * atomic exchange, so taking a free mutex is one cmpxchg. A task that finds
 * it held queues itself on wait_list (FIFO, under wait_lock) and sleeps
 * until mutex_unlock() wakes the first waiter, which then competes for the
 * lock again (a task arriving meanwhile may take it first; the waiter
 * stays first in line). The holder may sleep and be preempted.
 *
 * mutex_lock() may sleep: it WARNs (might_sleep()) in atomic context, and
 * if it must wait there (a contended lock with preemption or interrupts
 * off, or in an idle task) it spins instead of sleeping, so the misuse is
 * reported rather than a hang. Taking a mutex the task already holds is a
 * deadlock in Linux; here it is a panic naming the lock and both callers.
 *
 * With CONFIG_LOCKORDER, dep_map puts every mutex in a lock-order class
 * (<linux/lockorder.h>): a DEFINE_MUTEX() lock is its own class, the
 * mutexes of one mutex_init() call site share one. mutex_lock() checks
 * the order against the locks the task holds before it may sleep.
 */
struct mutex {
	unsigned long owner; /* struct task_struct *, or 0 */
	spinlock_t wait_lock;
	struct list_head wait_list;
	const char *name;
	unsigned long owner_ip; /* where the holder took it, for the panic */
	int owner_pid; /* the holder's pid: its task_struct may be reused */
	struct lockorder_map dep_map;
};

#define __MUTEX_INITIALIZER(lockname)                                \
	{                                                            \
		.wait_lock = __SPIN_LOCK_UNLOCKED(lockname.wait_lock), \
		.wait_list = LIST_HEAD_INIT(lockname.wait_list),      \
		.name = #lockname,                                    \
		.dep_map = LOCKORDER_MAP_INIT(#lockname),             \
	}
#define DEFINE_MUTEX(lockname) \
	struct mutex lockname = __MUTEX_INITIALIZER(lockname)

void __mutex_init(struct mutex *lock, const char *name,
		  struct lock_class_key *key);
/* One lock-order class per call site, as in Linux. */
#define mutex_init(lock)                                      \
	do {                                                  \
		static struct lock_class_key __key;           \
		__mutex_init((lock), #lock, &__key);          \
	} while (0)

void mutex_lock(struct mutex *lock);
/* Takes the lock if it is free: 1 on success, 0 if held. Never sleeps. */
int mutex_trylock(struct mutex *lock);
void mutex_unlock(struct mutex *lock);

static inline struct task_struct *mutex_owner(struct mutex *lock)
{
	return (struct task_struct *)READ_ONCE(lock->owner);
}

static inline bool mutex_is_locked(struct mutex *lock)
{
	return mutex_owner(lock) != NULL;
}

/* True if the current task holds lock. */
static inline bool mutex_is_owner(struct mutex *lock)
{
	return mutex_owner(lock) == current &&
	       READ_ONCE(lock->owner_pid) == current->pid;
}

/* WARNs once per call site, naming the lock and the task, if it is not held. */
#define lockdep_assert_held(l)                                            \
	WARN_ONCE(!mutex_is_owner(l), "lockdep: %s not held by %s/%d\n",  \
		  (l)->name, current->comm, current->pid)

#endif /* _LINUX_MUTEX_H */
