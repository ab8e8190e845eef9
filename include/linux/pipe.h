/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_PIPE_H
#define _LINUX_PIPE_H

/*
 * In-kernel pipes (kernel/pipe.c): a byte ring between writers and
 * readers, who sleep on wait queues, as Linux's pipes between processes.
 *
 * pipe_read() sleeps until there is data (or the write side is closed),
 * then takes what is there, up to len: returns the bytes read, 0 at the
 * end of the data (write side closed, ring empty).
 * pipe_write() sleeps until all len bytes are written: a write of at most
 * the pipe's size is never split (it waits for room for all of it),
 * longer ones go in pieces. Returns len, or what it wrote before the read
 * side was closed, or -EPIPE if that was nothing.
 *
 * Process context only (both may sleep). A side wakes the other only
 * when one of its tasks waits.
 */
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>

struct pipe {
	spinlock_t lock;		/* the fields below */
	unsigned int size;		/* bytes, a power of 2 */
	unsigned int head, tail;	/* bytes ever written, read */
	bool write_closed, read_closed;
	bool rd_waiting, wr_waiting;	/* a reader, a writer is queued */
	char *buf;
	struct wait_queue_head rd_wait;	/* readers wait for data or EOF */
	struct wait_queue_head wr_wait;	/* writers wait for room */
};

/* A pipe of size bytes (rounded up to a power of 2), or NULL. */
struct pipe *pipe_create(unsigned int size);
void pipe_destroy(struct pipe *pipe);

ssize_t pipe_read(struct pipe *pipe, void *buf, size_t len);
ssize_t pipe_write(struct pipe *pipe, const void *buf, size_t len);
/*
 * The same, but a sleep ends when stop() (called under the pipe's lock,
 * after the task queued itself as TASK_INTERRUPTIBLE, so that a wake-up
 * between the two is not lost) says so: -EINTR if nothing was moved yet.
 * Processes pass one that looks for a pending signal.
 */
ssize_t pipe_read_stoppable(struct pipe *pipe, void *buf, size_t len,
			    bool (*stop)(void));
ssize_t pipe_write_stoppable(struct pipe *pipe, const void *buf, size_t len,
			     bool (*stop)(void));

/* Readers get 0 once the ring is empty; the writer writes no more. */
void pipe_close_write(struct pipe *pipe);
/* Writers get -EPIPE (or a short count). */
void pipe_close_read(struct pipe *pipe);

/* Bytes in the ring now. */
unsigned int pipe_bytes(struct pipe *pipe);

/*
 * perf bench sched pipe in the kernel (kernel/sched/sched_pipe.c): two
 * kthreads bound to cpu pass a 4-byte token through two pipes, loops
 * times there and back. The first writes round trip i's token (i) to the
 * second and reads it back; the second checks and echoes it. mark, if
 * set, is called by the first thread at the start of round trip i (0 ..
 * loops - 1) and with i = loops after the last, when the second is asleep
 * in pipe_read(): a benchmark's timed region starts and ends there.
 */
struct sched_pipe {
	unsigned int loops;
	unsigned int cpu;
	void (*mark)(struct sched_pipe *sp, unsigned int i);
	void *priv;
	/* Results. */
	unsigned int round_trips;	/* completed */
	unsigned int echoed;		/* tokens the second thread echoed */
	unsigned int bad_tokens;	/* tokens not the one expected */
	int err;			/* 0, -ENOMEM, or a pipe's error */
};

/* Runs it, sleeping meanwhile; returns sp->err. */
int sched_pipe_run(struct sched_pipe *sp);

#endif /* _LINUX_PIPE_H */
