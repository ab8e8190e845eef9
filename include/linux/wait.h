/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_WAIT_H
#define _LINUX_WAIT_H

#include <linux/list.h>
#include <linux/sched.h>
#include <linux/spinlock.h>

/*
 * Wait queues (kernel/sched/wait.c): tasks sleeping until a condition
 * holds. A waiter queues itself and sets its state under the queue's lock
 * (prepare_to_wait()), tests the condition, then schedule()s; a waker
 * makes the condition true, then wake_up() wakes every queued task. As
 * set_current_state() comes before the test and wake_up() takes the same
 * lock, no wake-up is lost. wake_up() may be called from interrupts;
 * waiting only from a task with preemption enabled.
 */
struct wait_queue_head {
	spinlock_t lock;
	struct list_head head;
};
typedef struct wait_queue_head wait_queue_head_t;

struct wait_queue_entry {
	struct task_struct *task;
	struct list_head entry;
};

#define __WAIT_QUEUE_HEAD_INITIALIZER(name)              \
	{                                                \
		.lock = __SPIN_LOCK_UNLOCKED(name.lock), \
		.head = LIST_HEAD_INIT(name.head)        \
	}
#define DECLARE_WAIT_QUEUE_HEAD(name) \
	struct wait_queue_head name = __WAIT_QUEUE_HEAD_INITIALIZER(name)

void init_waitqueue_head(struct wait_queue_head *wq);
void prepare_to_wait(struct wait_queue_head *wq, struct wait_queue_entry *w,
		     long state);
void finish_wait(struct wait_queue_head *wq, struct wait_queue_entry *w);
/* Wakes every task waiting on wq. */
void wake_up(struct wait_queue_head *wq);
long schedule_timeout(long timeout);

/* Sleeps (uninterruptibly) until cond is true. */
#define wait_event(wq, cond)                                                \
	do {                                                                \
		struct wait_queue_entry __w = { .task = NULL };             \
		might_sleep();                                              \
		for (;;) {                                                  \
			prepare_to_wait(&(wq), &__w, TASK_UNINTERRUPTIBLE); \
			if (cond)                                           \
				break;                                      \
			schedule();                                         \
		}                                                           \
		finish_wait(&(wq), &__w);                                   \
	} while (0)

/*
 * Sleeps until cond is true or timeout jiffies pass: 0 if it timed out
 * with cond false, else the jiffies left (at least 1).
 */
#define wait_event_timeout(wq, cond, timeout)                               \
	({                                                                  \
		struct wait_queue_entry __w = { .task = NULL };             \
		long __left = (timeout);                                    \
		might_sleep();                                              \
		for (;;) {                                                  \
			prepare_to_wait(&(wq), &__w, TASK_UNINTERRUPTIBLE); \
			if (cond) {                                         \
				__left = __left ? __left : 1;               \
				break;                                      \
			}                                                   \
			if (!__left)                                        \
				break;                                      \
			__left = schedule_timeout(__left);                  \
		}                                                           \
		finish_wait(&(wq), &__w);                                   \
		__left;                                                     \
	})

#endif /* _LINUX_WAIT_H */
