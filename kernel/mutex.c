// SPDX-License-Identifier: GPL-2.0
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/preempt.h>
#include <linux/smp.h>
#include <asm/processor.h>

void mutex_lock(struct mutex *lock)
{
	unsigned int me = smp_processor_id() + 1;
	unsigned long ip = _RET_IP_;

	preempt_disable(); /* until mutex_unlock(): see <linux/mutex.h> */
	/* Only the holder writes owner: our own number means we hold it. */
	if (READ_ONCE(lock->owner) == me)
		panic("mutex %s: recursive lock on CPU%u at %pS, held since %pS",
		      lock->name, me - 1, (void *)ip, (void *)lock->owner_ip);
	/* The holder may be waiting for this CPU in an smp_call_function*(). */
	while (atomic_read(&lock->locked) || atomic_xchg(&lock->locked, 1))
		smp_wait_relax();
	WRITE_ONCE(lock->owner, me);
	lock->owner_ip = ip;
}

void mutex_unlock(struct mutex *lock)
{
	WARN_ON_ONCE(!mutex_is_owner(lock));
	lock->owner_ip = 0;
	WRITE_ONCE(lock->owner, 0);
	atomic_set_release(&lock->locked, 0);
	preempt_enable();
}

bool mutex_is_locked(struct mutex *lock)
{
	return atomic_read(&lock->locked);
}
