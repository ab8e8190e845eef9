// SPDX-License-Identifier: GPL-2.0
/*
 * In-kernel pipes (<linux/pipe.h>). The ring is buf[size], size a power
 * of 2, with free-running counters: head - tail bytes are in it, at
 * buf[tail % size] onwards. pipe->lock covers the ring; the wait queues
 * have their own locks, always taken after it (finish_wait()) or without
 * it (wake_up() after the unlock).
 *
 * A sleeper queues itself and sets its state (prepare_to_wait()), then,
 * under pipe->lock, looks at the condition and, if it must sleep, sets
 * rd_waiting or wr_waiting. The other side, changing the ring under the
 * lock, clears the flag and calls wake_up() after the unlock: so either
 * the sleeper sees the change or the waker sees the flag, and a wake-up
 * is only sent to someone who waits (Linux wakes on empty -> not empty
 * and full -> not full; a byte ring whose writes are whole may make a
 * writer wait while not full, hence the flags).
 */
#include <linux/kernel.h>
#include <linux/export.h>
#include <linux/errno.h>
#include <linux/pipe.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>

struct pipe *pipe_create(unsigned int size)
{
	struct pipe *pipe = kzalloc(sizeof(*pipe), GFP_KERNEL);
	unsigned int n = 16;

	if (!pipe)
		return NULL;
	while (n < size)
		n <<= 1;
	pipe->buf = kmalloc(n, GFP_KERNEL);
	if (!pipe->buf) {
		kfree(pipe);
		return NULL;
	}
	pipe->size = n;
	spin_lock_init(&pipe->lock);
	init_waitqueue_head(&pipe->rd_wait);
	init_waitqueue_head(&pipe->wr_wait);
	return pipe;
}
EXPORT_SYMBOL_GPL(pipe_create);

void pipe_destroy(struct pipe *pipe)
{
	if (pipe) {
		kfree(pipe->buf);
		kfree(pipe);
	}
}
EXPORT_SYMBOL_GPL(pipe_destroy);

unsigned int pipe_bytes(struct pipe *pipe)
{
	return READ_ONCE(pipe->head) - READ_ONCE(pipe->tail);
}
EXPORT_SYMBOL_GPL(pipe_bytes);

/* Lock held. */
static bool pipe_readable(struct pipe *pipe)
{
	return pipe->head != pipe->tail || pipe->write_closed;
}

/* Room for want bytes, or no reader left. Lock held. */
static bool pipe_writable(struct pipe *pipe, unsigned int want)
{
	return pipe->size - (pipe->head - pipe->tail) >= want ||
	       pipe->read_closed;
}

/*
 * Returns with pipe->lock held and data (or the end of it) there. A
 * reader that must sleep is queued first, then says so in rd_waiting
 * under the lock: the writer that clears the flag finds it queued.
 */
static int pipe_lock_readable(struct pipe *pipe, bool (*stop)(void))
{
	struct wait_queue_entry w = { .task = NULL };
	int ret = 0;

	spin_lock(&pipe->lock);
	while (!pipe_readable(pipe)) {
		spin_unlock(&pipe->lock);
		prepare_to_wait(&pipe->rd_wait, &w,
				stop ? TASK_INTERRUPTIBLE :
				       TASK_UNINTERRUPTIBLE);
		spin_lock(&pipe->lock);
		if (pipe_readable(pipe))
			break;
		if (stop && stop()) {
			ret = -EINTR;
			break;
		}
		pipe->rd_waiting = true;
		spin_unlock(&pipe->lock);
		schedule();
		spin_lock(&pipe->lock);
	}
	if (w.task)
		finish_wait(&pipe->rd_wait, &w);
	return ret;
}

/* The same for a writer that wants room for want bytes. */
static int pipe_lock_writable(struct pipe *pipe, unsigned int want,
			      bool (*stop)(void))
{
	struct wait_queue_entry w = { .task = NULL };
	int ret = 0;

	spin_lock(&pipe->lock);
	while (!pipe_writable(pipe, want)) {
		spin_unlock(&pipe->lock);
		prepare_to_wait(&pipe->wr_wait, &w,
				stop ? TASK_INTERRUPTIBLE :
				       TASK_UNINTERRUPTIBLE);
		spin_lock(&pipe->lock);
		if (pipe_writable(pipe, want))
			break;
		if (stop && stop()) {
			ret = -EINTR;
			break;
		}
		pipe->wr_waiting = true;
		spin_unlock(&pipe->lock);
		schedule();
		spin_lock(&pipe->lock);
	}
	if (w.task)
		finish_wait(&pipe->wr_wait, &w);
	return ret;
}

/* n bytes between the ring at position pos and buf; lock held. */
static void pipe_copy(struct pipe *pipe, unsigned int pos, void *buf,
		      unsigned int n, bool to_ring)
{
	unsigned int off = pos & (pipe->size - 1);
	unsigned int first = min(n, pipe->size - off);
	char *ring = pipe->buf + off;

	if (to_ring) {
		memcpy(ring, buf, first);
		memcpy(pipe->buf, (char *)buf + first, n - first);
	} else {
		memcpy(buf, ring, first);
		memcpy((char *)buf + first, pipe->buf, n - first);
	}
}

ssize_t pipe_read_stoppable(struct pipe *pipe, void *buf, size_t len,
			    bool (*stop)(void))
{
	bool wake = false;
	unsigned int n;
	int ret;

	might_sleep();
	if (!len)
		return 0;
	ret = pipe_lock_readable(pipe, stop);
	if (ret) {
		spin_unlock(&pipe->lock);
		return ret;
	}
	n = min_t(size_t, len, pipe->head - pipe->tail);
	pipe_copy(pipe, pipe->tail, buf, n, false);
	pipe->tail += n;
	if (n && pipe->wr_waiting) {
		pipe->wr_waiting = false;
		wake = true;
	}
	spin_unlock(&pipe->lock);
	if (wake)
		wake_up(&pipe->wr_wait);
	return n;
}
EXPORT_SYMBOL_GPL(pipe_read_stoppable);

ssize_t pipe_read(struct pipe *pipe, void *buf, size_t len)
{
	return pipe_read_stoppable(pipe, buf, len, NULL);
}
EXPORT_SYMBOL_GPL(pipe_read);

ssize_t pipe_write_stoppable(struct pipe *pipe, const void *buf, size_t len,
			     bool (*stop)(void))
{
	size_t done = 0;
	int ret;

	might_sleep();
	while (done < len) {
		/* Whole if it fits in the pipe at all, else piece by piece. */
		unsigned int want = len - done <= pipe->size ? len - done : 1;
		bool wake = false;
		unsigned int n;

		ret = pipe_lock_writable(pipe, want, stop);
		if (ret) {
			spin_unlock(&pipe->lock);
			return done ? (ssize_t)done : ret;
		}
		if (pipe->read_closed) {
			spin_unlock(&pipe->lock);
			return done ? (ssize_t)done : -EPIPE;
		}
		n = min_t(size_t, len - done,
			  pipe->size - (pipe->head - pipe->tail));
		pipe_copy(pipe, pipe->head, (char *)buf + done, n, true);
		pipe->head += n;
		if (pipe->rd_waiting) {
			pipe->rd_waiting = false;
			wake = true;
		}
		spin_unlock(&pipe->lock);
		if (wake)
			wake_up(&pipe->rd_wait);
		done += n;
	}
	return done;
}
EXPORT_SYMBOL_GPL(pipe_write_stoppable);

ssize_t pipe_write(struct pipe *pipe, const void *buf, size_t len)
{
	return pipe_write_stoppable(pipe, buf, len, NULL);
}
EXPORT_SYMBOL_GPL(pipe_write);

void pipe_close_write(struct pipe *pipe)
{
	spin_lock(&pipe->lock);
	pipe->write_closed = true;
	spin_unlock(&pipe->lock);
	wake_up(&pipe->rd_wait);
}
EXPORT_SYMBOL_GPL(pipe_close_write);

void pipe_close_read(struct pipe *pipe)
{
	spin_lock(&pipe->lock);
	pipe->read_closed = true;
	spin_unlock(&pipe->lock);
	wake_up(&pipe->wr_wait);
}
EXPORT_SYMBOL_GPL(pipe_close_read);
