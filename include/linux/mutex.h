/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_MUTEX_H
#define _LINUX_MUTEX_H

#include <linux/atomic.h>
#include <linux/bug.h>
#include <linux/compiler.h>

/*
 * A sleeping lock's interface over a test-and-set lock: there is no
 * scheduler yet, so a contended mutex spins. Taking a mutex the caller
 * already holds is a deadlock in Linux; here it is a BUG naming the lock.
 */
struct mutex {
	atomic_t locked;
	const char *name;
	unsigned long owner_ip; /* where the holder took it, for the BUG */
};

#define __MUTEX_INITIALIZER(lockname) \
	{ .locked = ATOMIC_INIT(0), .name = #lockname }
#define DEFINE_MUTEX(lockname) \
	struct mutex lockname = __MUTEX_INITIALIZER(lockname)

void mutex_lock(struct mutex *lock);
void mutex_unlock(struct mutex *lock);
bool mutex_is_locked(struct mutex *lock);

#define lockdep_assert_held(l) WARN_ON_ONCE(!mutex_is_locked(l))

#endif /* _LINUX_MUTEX_H */
