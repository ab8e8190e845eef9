// SPDX-License-Identifier: GPL-2.0
/* The contended half of spin_lock(); see <linux/spinlock.h>. */
#include <linux/kernel.h>
#include <linux/export.h>
#include <linux/spinlock.h>

void spin_lock_slowpath(spinlock_t *lock)
{
	if (spin_held_by_this_cpu(lock))
		panic("spinlock %pS: recursive lock on CPU%u", lock,
		      smp_processor_id());
	do {
		while (spin_is_locked(lock))
			cpu_relax();
	} while (!do_raw_spin_trylock(lock));
}
EXPORT_SYMBOL(spin_lock_slowpath);
