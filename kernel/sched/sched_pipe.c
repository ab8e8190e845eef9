// SPDX-License-Identifier: GPL-2.0
/*
 * perf bench sched pipe, in the kernel (<linux/pipe.h>): two kthreads on
 * one CPU pass a 4-byte token through two pipes. A round trip:
 *
 *   ping: write i to p1 (wakes pong)     pong: (asleep in read of p1)
 *   ping: read p2: empty, sleep   --switch-->  pong: reads i, checks it
 *                                        pong: writes i to p2 (wakes ping)
 *   ping: reads i, checks it  <--switch--  pong: read p1: empty, sleep
 *
 * so two wake-ups and two context switches, as perf bench sched pipe
 * pinned to one CPU. The caller sleeps on a completion meanwhile, off
 * the run queue, so that only the two threads run on that CPU.
 */
#include <linux/kernel.h>
#include <linux/export.h>
#include <linux/completion.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/pipe.h>
#include <linux/sched.h>

#define SCHED_PIPE_SIZE 4096

struct sched_pipe_run {
	struct sched_pipe *sp;
	struct pipe *p1, *p2; /* ping -> pong, pong -> ping */
	struct completion done; /* both threads finished */
	atomic_t running;
};

/* Reads exactly 4 bytes: 4, 0 at the end of the data, or an error. */
static int sched_pipe_get(struct pipe *pipe, u32 *token)
{
	ssize_t n = pipe_read(pipe, token, sizeof(*token));

	/* Writes of 4 bytes are never split: a read gets all or nothing. */
	return n == 0 || n == sizeof(*token) ? (int)n : -EIO;
}

static void sched_pipe_finish(struct sched_pipe_run *r, int err)
{
	if (err && !r->sp->err)
		r->sp->err = err;
	if (atomic_dec_and_test(&r->running))
		complete(&r->done);
	kthread_wait_stop();
}

static int sched_pipe_ping(void *data)
{
	struct sched_pipe_run *r = data;
	struct sched_pipe *sp = r->sp;
	u32 i, token;
	int err = 0;

	for (i = 0; i < sp->loops && !err; i++) {
		if (sp->mark)
			sp->mark(sp, i);
		if (pipe_write(r->p1, &i, sizeof(i)) != sizeof(i))
			err = -EIO;
		else if (sched_pipe_get(r->p2, &token) != sizeof(token))
			err = -EIO;
		else if (token != i)
			sp->bad_tokens++;
		if (!err)
			sp->round_trips++;
	}
	if (sp->mark && !err)
		sp->mark(sp, i);
	pipe_close_write(r->p1); /* pong reads the end and stops */
	sched_pipe_finish(r, err);
	return 0;
}

static int sched_pipe_pong(void *data)
{
	struct sched_pipe_run *r = data;
	u32 expect = 0, token;
	int n, err = 0;

	while ((n = sched_pipe_get(r->p1, &token)) > 0) {
		if (token != expect)
			r->sp->bad_tokens++;
		expect = token + 1;
		if (pipe_write(r->p2, &token, sizeof(token)) != sizeof(token)) {
			err = -EIO;
			break;
		}
		r->sp->echoed++;
	}
	if (n < 0)
		err = n;
	pipe_close_read(r->p1);
	pipe_close_write(r->p2); /* a ping still reading gets the end */
	sched_pipe_finish(r, err);
	return 0;
}

static int sched_pipe_threads(struct sched_pipe_run *r)
{
	unsigned int cpu = r->sp->cpu;
	struct task_struct *ping, *pong;

	ping = kthread_create_on_cpu(sched_pipe_ping, r, cpu, "pipe_ping/%u");
	if (IS_ERR(ping))
		return PTR_ERR(ping);
	pong = kthread_create_on_cpu(sched_pipe_pong, r, cpu, "pipe_pong/%u");
	if (IS_ERR(pong)) {
		kthread_stop(ping);
		return PTR_ERR(pong);
	}
	atomic_set(&r->running, 2);
	/* pong first: it is asleep in pipe_read() before ping's first mark. */
	wake_up_process(pong);
	wake_up_process(ping);
	wait_for_completion(&r->done);
	kthread_stop(ping);
	kthread_stop(pong);
	return 0;
}

int sched_pipe_run(struct sched_pipe *sp)
{
	struct sched_pipe_run r = { .sp = sp };
	int err = -ENOMEM;

	sp->round_trips = sp->echoed = sp->bad_tokens = 0;
	sp->err = 0;
	init_completion(&r.done);
	r.p1 = pipe_create(SCHED_PIPE_SIZE);
	r.p2 = pipe_create(SCHED_PIPE_SIZE);
	if (r.p1 && r.p2)
		err = sched_pipe_threads(&r);
	pipe_destroy(r.p1);
	pipe_destroy(r.p2);
	if (err)
		sp->err = err;
	return sp->err;
}
EXPORT_SYMBOL_GPL(sched_pipe_run);
