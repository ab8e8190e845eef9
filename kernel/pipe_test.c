// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "pipe": bytes in order across the ring's end, a reader that
 * sleeps until data comes, a writer that sleeps until there is room, the
 * end of the data and a closed read side, a large transfer between two
 * threads, and the sched pipe exchange (count, order, switches).
 */
#include <linux/kernel.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/pipe.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <kunit/test.h>

static struct pipe *ppt_create(struct kunit *test, unsigned int size)
{
	struct pipe *p = pipe_create(size);

	KUNIT_ASSERT_NOT_NULL(test, p);
	test->priv = p;
	return p;
}

static void ppt_exit(struct kunit *test)
{
	pipe_destroy(test->priv);
}

/* A CPU other than this one if there is one. */
static unsigned int ppt_other_cpu(void)
{
	unsigned int cpu;

	for_each_online_cpu(cpu)
		if (cpu != smp_processor_id())
			return cpu;
	return smp_processor_id();
}

static void ppt_test_order_and_wrap(struct kunit *test)
{
	struct pipe *p = ppt_create(test, 16);
	char out[16], in[32];
	unsigned int round, i, next = 0, expect = 0;

	KUNIT_EXPECT_EQ(test, p->size, 16);
	for (round = 0; round < 20; round++) {
		/* 7 in, then 5 out: the ring's end is crossed many times. */
		for (i = 0; i < 7; i++)
			out[i] = (char)next++;
		KUNIT_ASSERT_EQ(test, pipe_write(p, out, 7), 7);
		KUNIT_ASSERT_EQ(test, pipe_read(p, in, 5), 5);
		for (i = 0; i < 5; i++)
			KUNIT_EXPECT_EQ(test, in[i], (char)expect++);
		if (pipe_bytes(p) <= 8)
			continue;
		KUNIT_ASSERT_EQ(test, pipe_read(p, in, 9), 9);
		for (i = 0; i < 9; i++)
			KUNIT_EXPECT_EQ(test, in[i], (char)expect++);
	}
	/* A read takes what is there, up to its length. */
	KUNIT_EXPECT_EQ(test, pipe_read(p, in, 32), next - expect);
	KUNIT_EXPECT_EQ(test, pipe_bytes(p), 0);
	KUNIT_EXPECT_EQ(test, pipe_read(p, in, 0), 0);
}

struct ppt_peer {
	struct pipe *p;
	int started, finished;
	ssize_t ret;
	char buf[64];
	size_t len;
};

static int ppt_reader_fn(void *data)
{
	struct ppt_peer *r = data;

	WRITE_ONCE(r->started, 1);
	r->ret = pipe_read(r->p, r->buf, r->len);
	WRITE_ONCE(r->finished, 1);
	kthread_wait_stop();
	return 0;
}

static int ppt_writer_fn(void *data)
{
	struct ppt_peer *w = data;

	WRITE_ONCE(w->started, 1);
	w->ret = pipe_write(w->p, w->buf, w->len);
	WRITE_ONCE(w->finished, 1);
	kthread_wait_stop();
	return 0;
}

static bool ppt_wait_flag(int *flag, unsigned int ms)
{
	while (!READ_ONCE(*flag) && ms--)
		msleep(1);
	return READ_ONCE(*flag);
}

/* A reader on an empty pipe sleeps until the write, then gets it. */
static void ppt_test_read_blocks(struct kunit *test)
{
	struct ppt_peer *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	struct task_struct *t;

	KUNIT_ASSERT_NOT_NULL(test, r);
	r->p = ppt_create(test, 64);
	r->len = sizeof(r->buf);
	t = kthread_run_on_cpu(ppt_reader_fn, r, ppt_other_cpu(), "ppt_reader");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	KUNIT_EXPECT_TRUE(test, ppt_wait_flag(&r->started, 2000));
	msleep(20);
	KUNIT_EXPECT_EQ(test, READ_ONCE(r->finished), 0);
	KUNIT_EXPECT_NE(test, READ_ONCE(t->state), TASK_RUNNING);
	KUNIT_EXPECT_EQ(test, pipe_write(r->p, "hello", 5), 5);
	KUNIT_EXPECT_TRUE(test, ppt_wait_flag(&r->finished, 2000));
	kthread_stop(t);
	KUNIT_EXPECT_EQ(test, r->ret, 5);
	KUNIT_EXPECT_EQ(test, memcmp(r->buf, "hello", 5), 0);
}

/* A writer that does not fit sleeps until a read makes room. */
static void ppt_test_write_blocks(struct kunit *test)
{
	struct ppt_peer *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	struct task_struct *t;
	char in[16];

	KUNIT_ASSERT_NOT_NULL(test, w);
	w->p = ppt_create(test, 16);
	KUNIT_ASSERT_EQ(test, pipe_write(w->p, "0123456789abcd", 14), 14);
	memcpy(w->buf, "WXYZ", 4);
	w->len = 4; /* fits in 16 only as a whole: waits for 4 free */
	t = kthread_run_on_cpu(ppt_writer_fn, w, ppt_other_cpu(), "ppt_writer");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	KUNIT_EXPECT_TRUE(test, ppt_wait_flag(&w->started, 2000));
	msleep(20);
	KUNIT_EXPECT_EQ(test, READ_ONCE(w->finished), 0);
	KUNIT_EXPECT_EQ(test, pipe_bytes(w->p), 14);
	/* 14 of 16 used: not full, and yet the writer waits for 2 more. */
	KUNIT_EXPECT_EQ(test, pipe_read(w->p, in, 1), 1);
	msleep(20);
	KUNIT_EXPECT_EQ(test, READ_ONCE(w->finished), 0);
	KUNIT_EXPECT_EQ(test, pipe_read(w->p, in + 1, 1), 1);
	KUNIT_EXPECT_TRUE(test, ppt_wait_flag(&w->finished, 2000));
	kthread_stop(t);
	KUNIT_EXPECT_EQ(test, w->ret, 4);
	KUNIT_EXPECT_EQ(test, pipe_read(w->p, in, 16), 16);
	KUNIT_EXPECT_EQ(test, memcmp(in, "23456789abcdWXYZ", 16), 0);
	KUNIT_EXPECT_FALSE(test, w->p->wr_waiting);
}

static void ppt_test_close(struct kunit *test)
{
	struct pipe *p = ppt_create(test, 16);
	char in[8];

	KUNIT_EXPECT_EQ(test, pipe_write(p, "ab", 2), 2);
	pipe_close_write(p);
	KUNIT_EXPECT_EQ(test, pipe_read(p, in, 8), 2);
	KUNIT_EXPECT_EQ(test, pipe_read(p, in, 8), 0); /* the end, no sleep */
	pipe_close_read(p);
	KUNIT_EXPECT_EQ(test, pipe_write(p, "cd", 2), -EPIPE);
}

/* 64 KiB through 256 bytes, odd pieces both ways, in order. */
#define PPT_BIG (64 * 1024)

struct ppt_stream {
	struct pipe *p;
	unsigned int sent;
	int done;
};

static int ppt_stream_fn(void *data)
{
	struct ppt_stream *s = data;
	char chunk[300];
	unsigned int n, i;

	while (s->sent < PPT_BIG) {
		n = min(PPT_BIG - s->sent, 37 + s->sent % 263);
		for (i = 0; i < n; i++)
			chunk[i] = (char)((s->sent + i) * 7);
		if (pipe_write(s->p, chunk, n) != n)
			break;
		s->sent += n;
	}
	pipe_close_write(s->p);
	WRITE_ONCE(s->done, 1);
	kthread_wait_stop();
	return 0;
}

static void ppt_test_stream(struct kunit *test)
{
	struct ppt_stream *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	unsigned int got = 0, bad = 0, i;
	struct task_struct *t;
	char in[101];
	ssize_t n;

	KUNIT_ASSERT_NOT_NULL(test, s);
	s->p = ppt_create(test, 256);
	t = kthread_run_on_cpu(ppt_stream_fn, s, ppt_other_cpu(), "ppt_stream");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	while ((n = pipe_read(s->p, in, sizeof(in))) > 0) {
		for (i = 0; i < n; i++)
			bad += in[i] != (char)((got + i) * 7);
		got += n;
	}
	kthread_stop(t);
	KUNIT_EXPECT_EQ(test, n, 0);
	KUNIT_EXPECT_EQ(test, got, PPT_BIG);
	KUNIT_EXPECT_EQ(test, bad, 0);
}

/* The marks come in order, once each, at round trip boundaries. */
struct ppt_marks {
	unsigned int next, disorder;
	unsigned int trips_at_mark; /* round_trips seen == i each time */
};

static void ppt_mark(struct sched_pipe *sp, unsigned int i)
{
	struct ppt_marks *m = sp->priv;

	m->disorder += i != m->next;
	m->trips_at_mark += sp->round_trips == i;
	m->next = i + 1;
}

static void ppt_test_sched_pipe(struct kunit *test)
{
	struct ppt_marks m = { 0 };
	struct sched_pipe sp = { .loops = 2000,
				 .cpu = ppt_other_cpu(),
				 .mark = ppt_mark,
				 .priv = &m };
	struct sched_stats a, b;

	a = sched_cpu_stats(sp.cpu);
	KUNIT_EXPECT_EQ(test, sched_pipe_run(&sp), 0);
	b = sched_cpu_stats(sp.cpu);
	KUNIT_EXPECT_EQ(test, sp.round_trips, 2000);
	KUNIT_EXPECT_EQ(test, sp.echoed, 2000);
	KUNIT_EXPECT_EQ(test, sp.bad_tokens, 0);
	KUNIT_EXPECT_EQ(test, m.next, 2001);
	KUNIT_EXPECT_EQ(test, m.disorder, 0);
	KUNIT_EXPECT_EQ(test, m.trips_at_mark, 2001);
	/* Two switches a round trip at least (others may run there too). */
	KUNIT_EXPECT_GE(test, b.switches - a.switches, 2 * 2000);
	kunit_info(test,
		   "CPU%u: %lu switches, %lu wake-ups for 2000 round trips",
		   sp.cpu, b.switches - a.switches, b.wakeups - a.wakeups);
}

static struct kunit_case ppt_cases[] = { KUNIT_CASE(ppt_test_order_and_wrap),
					 KUNIT_CASE(ppt_test_read_blocks),
					 KUNIT_CASE(ppt_test_write_blocks),
					 KUNIT_CASE(ppt_test_close),
					 KUNIT_CASE(ppt_test_stream),
					 KUNIT_CASE(ppt_test_sched_pipe),
					 {} };

static struct kunit_suite ppt_suite = {
	.name = "pipe",
	.exit = ppt_exit,
	.test_cases = ppt_cases,
};
kunit_test_suite(ppt_suite);
