/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_LOCKORDER_H
#define _LINUX_LOCKORDER_H

#include <linux/bug.h>
#include <linux/lockorder_types.h>
#include <linux/sched.h>

/*
 * The lock-order checker of sleeping locks (Documentation/locking.rst).
 *
 * Every lock has a class: a statically defined lock its own (a map with
 * no key), the locks initialized at one call site share the class of
 * that site's static struct lock_class_key. The first time a task takes a
 * lock of class B while it holds one of class A, the order A -> B is
 * recorded with both call sites. An acquisition that would close a cycle
 * through recorded orders (B then A after A -> B, or C then A after
 * A -> B -> C) WARNs once per pair of classes, before the lock can block,
 * with the call sites of both acquisitions and of the recorded orders;
 * then the acquisition goes on as usual.
 *
 * How a lock uses it:
 *  - lockorder_acquire(map, ip) before it may block (ip: its caller,
 *    _RET_IP_ in the lock function), lockorder_acquire_read() for a
 *    shared acquisition of a reader/writer lock;
 *  - lockorder_acquire_try(map, ip) after a successful trylock (a trylock
 *    cannot wait, so it adds no order to itself; what is taken while it
 *    is held is ordered after it);
 *  - lockorder_release(map, ip) when it is released, in any order.
 *
 * Reads and writes of a reader/writer lock share its class and are
 * ordered alike: a reader that waits behind a queued writer deadlocks as
 * a writer would. Taking a lock the task already holds (a second read
 * included) WARNs once per class. Two locks of one class may be nested
 * without a check: the checker sees classes, not instances.
 *
 * Nothing is tracked in interrupt context. The checker prints with its
 * own raw spinlock held, so printk() must never take a checked lock.
 */

#define LOCKORDER_READ 0x1 /* a shared acquisition */
#define LOCKORDER_TRY 0x2 /* a successful trylock: no order checked */

#ifdef CONFIG_LOCKORDER

/* A statically defined lock's map: the lock is its own class. */
#define LOCKORDER_MAP_INIT(namestr)                           \
	{                                                     \
		.key = NULL, .class = NULL, .name = (namestr) \
	}

/* A lock initialized at run time: key is its class, static. */
void lockorder_map_init(struct lockorder_map *map, const char *name,
			struct lock_class_key *key);
void __lockorder_acquire(struct lockorder_map *map, unsigned long ip,
			 unsigned int flags);
void lockorder_release(struct lockorder_map *map, unsigned long ip);
/*
 * True if the current task holds map, or if that is unknown: the task or
 * the lock is not tracked, or this is interrupt context.
 */
bool lockorder_is_held(const struct lockorder_map *map);
/* The number of locks the current task holds (0 if not tracked). */
unsigned int lockorder_depth(void);

/* WARNs once per call site if the current task does not hold map. */
#define lockorder_assert_held(map)                                  \
	WARN_ONCE(!lockorder_is_held(map),                          \
		  "lockorder: %s not held by %s/%d\n", (map)->name, \
		  current->comm, current->pid)

/*
 * For the tests: whether from -> to is recorded (as an order, not as a
 * reported inversion), how many of the current task's acquisitions looked
 * at the graph (the others took the fast path), the tables' use, and
 * lower limits on them (within the arrays' sizes; the old limit is
 * returned, and a new limit lets the "table full" message print again).
 */
bool lockorder_order_recorded(const struct lockorder_map *from,
			      const struct lockorder_map *to);
unsigned long lockorder_nr_checks(void);
unsigned int lockorder_nr_classes(void);
unsigned int lockorder_nr_edges(void);
unsigned int lockorder_set_max_classes(unsigned int max);
unsigned int lockorder_set_max_edges(unsigned int max);

#else /* !CONFIG_LOCKORDER */

#define LOCKORDER_MAP_INIT(namestr) \
	{                           \
	}

static inline void lockorder_map_init(struct lockorder_map *map,
				      const char *name,
				      struct lock_class_key *key)
{
}

static inline void __lockorder_acquire(struct lockorder_map *map,
				       unsigned long ip, unsigned int flags)
{
}

static inline void lockorder_release(struct lockorder_map *map,
				     unsigned long ip)
{
}

static inline bool lockorder_is_held(const struct lockorder_map *map)
{
	return true;
}

static inline unsigned int lockorder_depth(void)
{
	return 0;
}

#define lockorder_assert_held(map) ((void)(map))

#endif /* CONFIG_LOCKORDER */

static inline void lockorder_acquire(struct lockorder_map *map,
				     unsigned long ip)
{
	__lockorder_acquire(map, ip, 0);
}

static inline void lockorder_acquire_read(struct lockorder_map *map,
					  unsigned long ip)
{
	__lockorder_acquire(map, ip, LOCKORDER_READ);
}

static inline void lockorder_acquire_try(struct lockorder_map *map,
					 unsigned long ip)
{
	__lockorder_acquire(map, ip, LOCKORDER_TRY);
}

#endif /* _LINUX_LOCKORDER_H */
