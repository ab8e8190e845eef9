// SPDX-License-Identifier: GPL-2.0
/* Sleeping mutexes: see <linux/mutex.h> for the rules. */
#include <linux/kernel.h>
#include <linux/export.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <asm/processor.h>

struct mutex_waiter {
	struct list_head list;
	struct task_struct *task;
};

void __mutex_init(struct mutex *lock, const char *name,
		  struct lock_class_key *key)
{
	lock->owner = 0;
	spin_lock_init(&lock->wait_lock);
	INIT_LIST_HEAD(&lock->wait_list);
	lock->name = name;
	lock->owner_ip = 0;
	lockorder_map_init(&lock->dep_map, name, key);
}
EXPORT_SYMBOL(__mutex_init);

/* One cmpxchg, a full barrier: free -> current. */
static bool mutex_try_acquire(struct mutex *lock)
{
	unsigned long free = 0;

	return __atomic_compare_exchange_n(&lock->owner, &free,
					   (unsigned long)current, false,
					   __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);
}

/*
 * Queued at the tail of wait_list, the task sleeps until it gets the lock.
 * Its try comes after it is on the list and before it sleeps, and the
 * unlock empties owner before it looks at the list (both full barriers):
 * either the try sees the lock free or the unlock sees the waiter.
 */
static void mutex_lock_sleep(struct mutex *lock)
{
	struct mutex_waiter waiter = { .task = current };

	spin_lock(&lock->wait_lock);
	list_add_tail(&waiter.list, &lock->wait_list);
	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (mutex_try_acquire(lock))
			break;
		spin_unlock(&lock->wait_lock);
		schedule();
		spin_lock(&lock->wait_lock);
	}
	__set_current_state(TASK_RUNNING);
	list_del_init(&waiter.list);
	spin_unlock(&lock->wait_lock);
}

/*
 * The task's own task_struct owns lock: it holds it (a panic), or a task
 * that exited holding it had the same task_struct (a WARN; then it waits
 * forever, as for any lock whose holder is gone).
 */
static noinline void mutex_lock_owned(struct mutex *lock, unsigned long ip)
{
	if (mutex_is_owner(lock))
		panic("mutex %s: recursive lock by %s/%d at %pS, held since %pS",
		      lock->name, current->comm, current->pid, (void *)ip,
		      (void *)lock->owner_ip);
	WARN_ONCE(1,
		  "mutex %s: held by pid %d, which exited holding it (taken at %pS); %s/%d at %pS waits forever\n",
		  lock->name, lock->owner_pid, (void *)lock->owner_ip,
		  current->comm, current->pid, (void *)ip);
}

/* The lock is held: sleep for it, or spin where sleeping is not allowed. */
static noinline void mutex_lock_contended(struct mutex *lock)
{
	if (sched_may_sleep()) {
		mutex_lock_sleep(lock);
		return;
	}
	/* Reported by might_sleep(); the holder may be waiting for this CPU
	 * in an smp_call_function*(). */
	while (!mutex_try_acquire(lock))
		smp_wait_relax();
}

void mutex_lock(struct mutex *lock)
{
	unsigned long ip = _RET_IP_;

	might_sleep();
	if (unlikely(mutex_owner(lock) == current))
		mutex_lock_owned(lock, ip);
	lockorder_acquire(&lock->dep_map, ip); /* before it may sleep */
	if (unlikely(!mutex_try_acquire(lock)))
		mutex_lock_contended(lock);
	lock->owner_ip = ip;
	WRITE_ONCE(lock->owner_pid, current->pid);
}
EXPORT_SYMBOL(mutex_lock);

int mutex_trylock(struct mutex *lock)
{
	if (!mutex_try_acquire(lock))
		return 0;
	lock->owner_ip = _RET_IP_;
	WRITE_ONCE(lock->owner_pid, current->pid);
	lockorder_acquire_try(&lock->dep_map, _RET_IP_);
	return 1;
}
EXPORT_SYMBOL(mutex_trylock);

/* Wakes the first waiter, if there still is one. */
static noinline void mutex_unlock_wake(struct mutex *lock)
{
	struct mutex_waiter *first;

	spin_lock(&lock->wait_lock);
	if (!list_empty(&lock->wait_list)) {
		first = list_first_entry(&lock->wait_list, struct mutex_waiter,
					 list);
		wake_up_process(first->task);
	}
	spin_unlock(&lock->wait_lock);
}

void mutex_unlock(struct mutex *lock)
{
	if (WARN_ONCE(!mutex_is_owner(lock),
		      "mutex %s: unlocked at %pS by %s/%d, which does not hold it\n",
		      lock->name, (void *)_RET_IP_, current->comm, current->pid))
		return;
	lockorder_release(&lock->dep_map, _RET_IP_);
	lock->owner_ip = 0;
	__atomic_exchange_n(&lock->owner, 0, __ATOMIC_SEQ_CST);
	if (unlikely(!list_empty(&lock->wait_list)))
		mutex_unlock_wake(lock);
}
EXPORT_SYMBOL(mutex_unlock);
