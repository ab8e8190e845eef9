/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_JUMP_LABEL_RATELIMIT_H
#define _LINUX_JUMP_LABEL_RATELIMIT_H

#include <linux/jump_label.h>
#include <linux/workqueue.h>

/*
 * Deferred static keys (Linux's API and layout): keys whose last
 * decrement waits timeout jiffies, so a key turned on and off often
 * patches the code at most about once a timeout.
 *
 *   - a dec that leaves the count at 1 or more happens at once, without
 *     the jump label lock;
 *   - the dec that would reach 0 is left to the key's delayed work, queued
 *     timeout jiffies ahead (0: at once) on system_wq; until it runs the
 *     count stays 1 and the code as it was. An inc meanwhile only counts
 *     (1 -> 2: nothing to patch) and the work's dec then leaves it at 1;
 *   - static_key_deferred_flush() runs a pending dec now and waits for it;
 *   - an unbalanced dec (count 0) WARNs once per key, like
 *     static_key_slow_dec().
 *
 * With CONFIG_JUMP_LABEL=n there is nothing to patch and no reason to
 * wait: a deferred dec is a static_key_slow_dec(), as in Linux. The
 * structures keep the same fields there (Linux drops timeout and work).
 *
 * A struct static_key_deferred (the older form, a bare key) gets its
 * timeout and work from jump_label_rate_limit() before its first dec.
 */
struct static_key_deferred {
	struct static_key key;
	unsigned long timeout;
	struct delayed_work work;
};

struct static_key_true_deferred {
	struct static_key_true key;
	unsigned long timeout;
	struct delayed_work work;
};

struct static_key_false_deferred {
	struct static_key_false key;
	unsigned long timeout;
	struct delayed_work work;
};

/* The delayed work of every deferred key: the real static_key_slow_dec(). */
void jump_label_update_timeout(struct work_struct *work);
void jump_label_rate_limit(struct static_key_deferred *key, unsigned long rl);
void __static_key_slow_dec_deferred(struct static_key *key,
				    struct delayed_work *work,
				    unsigned long timeout);
void __static_key_deferred_flush(void *key, struct delayed_work *work);

#define __DEFINE_STATIC_KEY_DEFERRED(type, name, init, rl)          \
	struct type name = {                                        \
		.key = { .key = init },                             \
		.timeout = (rl),                                    \
		.work = __DELAYED_WORK_INITIALIZER(                 \
			(name).work, jump_label_update_timeout, 0), \
	};                                                          \
	__STATIC_KEY_DEF(name, &(name).key.key, 1, STATIC_KEY_DEF_DEFERRED)
#define DEFINE_STATIC_KEY_DEFERRED_TRUE(name, rl)                    \
	__DEFINE_STATIC_KEY_DEFERRED(static_key_true_deferred, name, \
				     __STATIC_KEY_INIT_TRUE, rl)
#define DEFINE_STATIC_KEY_DEFERRED_FALSE(name, rl)                    \
	__DEFINE_STATIC_KEY_DEFERRED(static_key_false_deferred, name, \
				     __STATIC_KEY_INIT_FALSE, rl)

#define static_branch_deferred_inc(x) static_branch_inc(&(x)->key)

#ifdef CONFIG_JUMP_LABEL
#define static_key_slow_dec_deferred(x) \
	__static_key_slow_dec_deferred(&(x)->key, &(x)->work, (x)->timeout)
#define static_branch_slow_dec_deferred(x) \
	__static_key_slow_dec_deferred(&(x)->key.key, &(x)->work, (x)->timeout)
#else
#define static_key_slow_dec_deferred(x) static_key_slow_dec(&(x)->key)
#define static_branch_slow_dec_deferred(x) static_branch_dec(&(x)->key)
#endif

/* Accepts any of the three structures. */
#define static_key_deferred_flush(x) \
	__static_key_deferred_flush((x), &(x)->work)

#endif /* _LINUX_JUMP_LABEL_RATELIMIT_H */
