/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_LOCKORDER_TYPES_H
#define _LINUX_LOCKORDER_TYPES_H

#include <linux/types.h>

/*
 * The types of the lock-order checker (<linux/lockorder.h> has the API and
 * Documentation/locking.rst the rules), apart so that <linux/sched.h> can
 * embed a task's held locks and <linux/mutex.h> a lock's map without
 * pulling in the API. With CONFIG_LOCKORDER=n every type is empty.
 */

#define LOCKORDER_MAX_HELD 16

struct lock_class;

#ifdef CONFIG_LOCKORDER

/*
 * A class key: a static object shared by the locks of one class, such as
 * every mutex initialized by one mutex_init() call site. It must live in
 * static data (the kernel image's .data or .bss); class caches the class
 * registered for it at the first acquisition of any of its locks.
 */
struct lock_class_key {
	struct lock_class *class;
};

/*
 * What the checker knows of one lock: its name, its class's key (NULL: a
 * statically defined lock, which is its own class and whose map must then
 * be in static data) and the class, cached at its first acquisition.
 */
struct lockorder_map {
	struct lock_class_key *key;
	struct lock_class *class;
	const char *name;
};

/* A lock the task holds: which, of which class, taken where. */
struct lockorder_held {
	struct lockorder_map *map;
	struct lock_class *class;
	unsigned long ip;
	/*
	 * A hash of the classes of this entry and the ones below it: a class
	 * found in order on top of a stack remembers its chain, and taking
	 * it again on a stack of the same chain needs no check.
	 */
	unsigned long chain;
	bool read;
};

/*
 * Per task: the locks it holds, oldest first. off is set when the array
 * overflowed: from then on nothing is tracked for the task. nr_checks
 * counts its acquisitions that had to look at the graph.
 */
struct lockorder_task {
	unsigned int depth;
	bool off;
	unsigned long nr_checks;
	struct lockorder_held held[LOCKORDER_MAX_HELD];
};

/* Called by do_exit(): WARNs once per lock class held by a dying task. */
void lockorder_task_exit(void);

#else /* !CONFIG_LOCKORDER */

struct lock_class_key {};
struct lockorder_map {};
struct lockorder_task {};

static inline void lockorder_task_exit(void)
{
}

#endif /* CONFIG_LOCKORDER */

#endif /* _LINUX_LOCKORDER_TYPES_H */
