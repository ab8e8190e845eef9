// SPDX-License-Identifier: GPL-2.0
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <asm/processor.h>

void mutex_lock(struct mutex *lock)
{
	unsigned long ip = _RET_IP_;

	/* One CPU and no scheduler: a held lock can only be our own. */
	if (atomic_xchg(&lock->locked, 1))
		panic("mutex %s: recursive lock at %pS, held since %pS",
		      lock->name, (void *)ip, (void *)lock->owner_ip);
	lock->owner_ip = ip;
}

void mutex_unlock(struct mutex *lock)
{
	WARN_ON_ONCE(!atomic_read(&lock->locked));
	lock->owner_ip = 0;
	atomic_set_release(&lock->locked, 0);
}

bool mutex_is_locked(struct mutex *lock)
{
	return atomic_read(&lock->locked);
}
