/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_WARN_RECORD_H
#define _LINUX_WARN_RECORD_H

/*
 * Warn once per (object, kind): a small record of what was reported, so
 * that a misuse WARNs the first time an object (a key, a caller) shows it
 * and stays quiet after. Past the record's end every misuse warns: better
 * a repeated WARN than a lost one. One record per subsystem:
 *
 *   DEFINE_WARN_RECORD(my_warned, 32);
 *   if (warn_record_first(&my_warned, obj, KIND))
 *           WARN(...);
 */
#include <linux/spinlock.h>
#include <linux/types.h>

struct warn_record_entry {
	const void *obj;
	unsigned int kind;
};

struct warn_record {
	spinlock_t lock;
	unsigned int nr, max;
	struct warn_record_entry *seen;
};

#define DEFINE_WARN_RECORD(name, n)                                     \
	static struct warn_record_entry name##_seen[n];                 \
	static struct warn_record name = {                              \
		.lock = __SPIN_LOCK_UNLOCKED(name.lock),                \
		.max = n,                                               \
		.seen = name##_seen,                                    \
	}

/* Records (obj, kind) in r; true the first time, or once r is full. */
bool warn_record_first(struct warn_record *r, const void *obj,
		       unsigned int kind);

#endif /* _LINUX_WARN_RECORD_H */
