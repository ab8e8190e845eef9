/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_COMPLETION_H
#define _LINUX_COMPLETION_H

#include <linux/wait.h>

/*
 * Completions: "this happened", counted. complete() lets one waiter
 * through (or a later one), complete_all() every waiter from now on until
 * reinit_completion(). complete*() may be called from interrupts.
 */
struct completion {
	unsigned int done;
	struct wait_queue_head wait;
};

#define COMPLETION_INITIALIZER(work)                          \
	{                                                     \
		0, __WAIT_QUEUE_HEAD_INITIALIZER((work).wait) \
	}
#define DECLARE_COMPLETION(work) \
	struct completion work = COMPLETION_INITIALIZER(work)
#define DECLARE_COMPLETION_ONSTACK(work) DECLARE_COMPLETION(work)

static inline void init_completion(struct completion *x)
{
	x->done = 0;
	init_waitqueue_head(&x->wait);
}

static inline void reinit_completion(struct completion *x)
{
	x->done = 0;
}

void complete(struct completion *x);
void complete_all(struct completion *x);
void wait_for_completion(struct completion *x);
/* 0 if timeout jiffies passed first, else the jiffies left (>= 1). */
unsigned long wait_for_completion_timeout(struct completion *x,
					  unsigned long timeout);
bool completion_done(struct completion *x);

#endif /* _LINUX_COMPLETION_H */
