// SPDX-License-Identifier: GPL-2.0
/* Wait queues and completions (<linux/wait.h>, <linux/completion.h>). */
#include <linux/kernel.h>
#include <linux/completion.h>
#include <linux/export.h>
#include <linux/limits.h>
#include <linux/wait.h>

void init_waitqueue_head(struct wait_queue_head *wq)
{
	spin_lock_init(&wq->lock);
	INIT_LIST_HEAD(&wq->head);
}
EXPORT_SYMBOL(init_waitqueue_head);

/* Queues w (once) and sets the task's state, both under wq->lock. */
void prepare_to_wait(struct wait_queue_head *wq, struct wait_queue_entry *w,
		     long state)
{
	unsigned long flags;

	spin_lock_irqsave(&wq->lock, flags);
	if (w->task != current) {
		w->task = current;
		list_add_tail(&w->entry, &wq->head);
	}
	set_current_state(state);
	spin_unlock_irqrestore(&wq->lock, flags);
}
EXPORT_SYMBOL(prepare_to_wait);

void finish_wait(struct wait_queue_head *wq, struct wait_queue_entry *w)
{
	unsigned long flags;

	__set_current_state(TASK_RUNNING);
	spin_lock_irqsave(&wq->lock, flags);
	list_del_init(&w->entry);
	spin_unlock_irqrestore(&wq->lock, flags);
}
EXPORT_SYMBOL(finish_wait);

void wake_up(struct wait_queue_head *wq)
{
	struct list_head *n;
	unsigned long flags;

	spin_lock_irqsave(&wq->lock, flags);
	for (n = wq->head.next; n != &wq->head; n = n->next)
		wake_up_process(
			list_entry(n, struct wait_queue_entry, entry)->task);
	spin_unlock_irqrestore(&wq->lock, flags);
}
EXPORT_SYMBOL(wake_up);

void complete(struct completion *x)
{
	unsigned long flags;

	spin_lock_irqsave(&x->wait.lock, flags);
	if (x->done != UINT_MAX)
		x->done++;
	spin_unlock_irqrestore(&x->wait.lock, flags);
	wake_up(&x->wait);
}
EXPORT_SYMBOL(complete);

void complete_all(struct completion *x)
{
	unsigned long flags;

	spin_lock_irqsave(&x->wait.lock, flags);
	x->done = UINT_MAX;
	spin_unlock_irqrestore(&x->wait.lock, flags);
	wake_up(&x->wait);
}
EXPORT_SYMBOL(complete_all);

/* Takes one "done" if there is one. */
static bool completion_try_take(struct completion *x)
{
	unsigned long flags;
	bool taken = false;

	spin_lock_irqsave(&x->wait.lock, flags);
	if (x->done) {
		if (x->done != UINT_MAX)
			x->done--;
		taken = true;
	}
	spin_unlock_irqrestore(&x->wait.lock, flags);
	return taken;
}

void wait_for_completion(struct completion *x)
{
	might_sleep();
	wait_event(x->wait, completion_try_take(x));
}
EXPORT_SYMBOL(wait_for_completion);

unsigned long wait_for_completion_timeout(struct completion *x,
					  unsigned long timeout)
{
	might_sleep();
	return wait_event_timeout(x->wait, completion_try_take(x),
				  (long)timeout);
}
EXPORT_SYMBOL(wait_for_completion_timeout);

bool completion_done(struct completion *x)
{
	return READ_ONCE(x->done) != 0;
}
EXPORT_SYMBOL(completion_done);
