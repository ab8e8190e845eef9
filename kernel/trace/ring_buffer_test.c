// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "ring_buffer": records come back whole and in order, a
 * full ring overwrites its oldest page and counts what it lost, and under
 * load from every CPU (threads, plus interrupts that write too) with a
 * reader running at the same time no record is torn, every CPU's records
 * arrive in order, and written = read + overrun once drained.
 */
#include <linux/kernel.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/ring_buffer.h>
#include <linux/smp.h>
#include <linux/timex.h>
#include <asm/tsc.h>
#include <kunit/test.h>

static unsigned int rbt_load_ms = 300;
core_param_named("ring_buffer_test.load_ms", rbt_load_ms, uint);

#define RBT_MAGIC 0x5242u

/* A test record: its header, then bytes derived from it. */
struct rbt_rec {
	u16 magic;
	u16 len; /* payload bytes, this header included */
	u16 writer; /* 0..NR_CPUS-1: a thread; +NR_CPUS: an interrupt */
	u16 cpu; /* where it was written */
	u32 n; /* the writer's count */
	u8 bytes[];
};

static u8 rbt_byte(const struct rbt_rec *r, unsigned int i)
{
	return (u8)(r->n * 31 + i * 7 + r->writer);
}

/* Fills a record of len bytes (>= sizeof(struct rbt_rec)) in buf. */
static void rbt_fill(void *buf, unsigned int len, u16 writer, u32 n)
{
	struct rbt_rec *r = buf;
	unsigned int i;

	r->magic = RBT_MAGIC;
	r->len = len;
	r->writer = writer;
	r->cpu = smp_processor_id();
	r->n = n;
	for (i = 0; i < len - sizeof(*r); i++)
		r->bytes[i] = rbt_byte(r, i);
}

/* True if buf (len bytes, read from cpu's ring) is a whole record. */
static bool rbt_whole(const void *buf, int len, unsigned int cpu)
{
	const struct rbt_rec *r = buf;
	unsigned int i;

	if (len < (int)sizeof(*r) || r->magic != RBT_MAGIC || r->len != len ||
	    r->cpu != cpu)
		return false;
	for (i = 0; i < len - sizeof(*r); i++)
		if (r->bytes[i] != rbt_byte(r, i))
			return false;
	return true;
}

static int rbt_write(struct trace_buffer *b, unsigned int len, u16 writer,
		     u32 n)
{
	struct ring_buffer_handle h;
	void *p = ring_buffer_lock_reserve(b, len, &h);

	if (!p)
		return -EBUSY;
	rbt_fill(p, len, writer, n);
	ring_buffer_unlock_commit(&h);
	return 0;
}

static unsigned int rbt_len(u32 n)
{
	return sizeof(struct rbt_rec) + (n * 13) % 97;
}

static struct trace_buffer *rbt_alloc(struct kunit *test, unsigned long size)
{
	struct trace_buffer *b = ring_buffer_alloc(size);

	KUNIT_ASSERT_NOT_NULL(test, b);
	test->priv = b;
	return b;
}

static void rbt_exit(struct kunit *test)
{
	ring_buffer_free(test->priv);
}

static void rbt_test_write_read(struct kunit *test)
{
	struct trace_buffer *b = rbt_alloc(test, 8 * PAGE_SIZE);
	unsigned int cpu = smp_processor_id(), i;
	struct ring_buffer_cpu_stats st;
	u8 buf[RING_BUFFER_MAX_EVENT];
	unsigned long lost;
	u64 ts, last = 0;
	int len;

	KUNIT_EXPECT_EQ(
		test, ring_buffer_consume(b, cpu, buf, sizeof(buf), &ts, &lost),
		0);
	for (i = 0; i < 10; i++)
		KUNIT_ASSERT_EQ(test, rbt_write(b, rbt_len(i), 0, i), 0);
	for (i = 0; i < 10; i++) {
		len = ring_buffer_consume(b, cpu, buf, sizeof(buf), &ts, &lost);
		KUNIT_EXPECT_EQ(test, len, rbt_len(i));
		KUNIT_EXPECT_TRUE(test, rbt_whole(buf, len, cpu));
		KUNIT_EXPECT_EQ(test, ((struct rbt_rec *)buf)->n, i);
		KUNIT_EXPECT_EQ(test, lost, 0);
		KUNIT_EXPECT_GE(test, ts, last);
		last = ts;
	}
	KUNIT_EXPECT_EQ(
		test, ring_buffer_consume(b, cpu, buf, sizeof(buf), &ts, &lost),
		0);
	ring_buffer_cpu_stats(b, cpu, &st);
	KUNIT_EXPECT_EQ(test, st.written, 10);
	KUNIT_EXPECT_EQ(test, st.read, 10);
	KUNIT_EXPECT_EQ(test, st.overrun, 0);
	/* Nothing was written on the other CPUs. */
	KUNIT_EXPECT_EQ(test,
			ring_buffer_consume(b, (cpu + 1) % NR_CPUS, buf,
					    sizeof(buf), &ts, &lost),
			0);
}

/*
 * Two pages, many more records than fit: the reader gets the newest
 * ones, contiguous, and is told how many it lost before the first.
 */
static void rbt_test_overwrite_oldest(struct kunit *test)
{
	struct trace_buffer *b = rbt_alloc(test, 2 * PAGE_SIZE);
	unsigned int cpu = smp_processor_id(), i, got = 0;
	struct ring_buffer_cpu_stats st;
	u8 buf[RING_BUFFER_MAX_EVENT];
	unsigned long lost, lost_sum = 0;
	u32 first = 0, expect = 0;
	int len;

	KUNIT_EXPECT_EQ(test, ring_buffer_nr_pages(b), 2);
	for (i = 0; i < 1000; i++)
		KUNIT_ASSERT_EQ(test, rbt_write(b, 64, 0, i), 0);
	while ((len = ring_buffer_consume(b, cpu, buf, sizeof(buf), NULL,
					  &lost)) > 0) {
		struct rbt_rec *r = (void *)buf;

		KUNIT_EXPECT_TRUE(test, rbt_whole(buf, len, cpu));
		if (!got++)
			first = r->n;
		KUNIT_EXPECT_EQ(test, r->n, expect + lost);
		expect = r->n + 1;
		lost_sum += lost;
	}
	ring_buffer_cpu_stats(b, cpu, &st);
	KUNIT_EXPECT_EQ(test, expect, 1000); /* the newest came back */
	KUNIT_EXPECT_EQ(test, lost_sum, first);
	KUNIT_EXPECT_EQ(test, st.written, 1000);
	KUNIT_EXPECT_EQ(test, st.read, got);
	KUNIT_EXPECT_EQ(test, st.overrun, first);
	KUNIT_EXPECT_GT(test, st.overrun, 0);
	/* At least one page's worth survives: 2 pages, 80 bytes a record. */
	KUNIT_EXPECT_GE(test, got, (PAGE_SIZE - 64) / 80);
}

/* A reader in the middle of a page that the writer then laps. */
static void rbt_test_reader_lapped(struct kunit *test)
{
	struct trace_buffer *b = rbt_alloc(test, 2 * PAGE_SIZE);
	unsigned int cpu = smp_processor_id(), i;
	struct ring_buffer_cpu_stats st;
	u8 buf[RING_BUFFER_MAX_EVENT];
	unsigned long lost;
	int len;

	for (i = 0; i < 10; i++)
		rbt_write(b, 64, 0, i);
	for (i = 0; i < 3; i++)
		ring_buffer_consume(b, cpu, buf, sizeof(buf), NULL, &lost);
	for (i = 10; i < 500; i++)
		rbt_write(b, 64, 0, i);
	len = ring_buffer_consume(b, cpu, buf, sizeof(buf), NULL, &lost);
	KUNIT_ASSERT_GT(test, len, 0);
	KUNIT_EXPECT_TRUE(test, rbt_whole(buf, len, cpu));
	KUNIT_EXPECT_EQ(test, ((struct rbt_rec *)buf)->n, 3 + lost);
	ring_buffer_cpu_stats(b, cpu, &st);
	KUNIT_EXPECT_EQ(test, st.overrun, lost);
	KUNIT_EXPECT_EQ(test, st.read, 4);
}

static void rbt_test_refusals(struct kunit *test)
{
	struct trace_buffer *b = rbt_alloc(test, 2 * PAGE_SIZE);
	unsigned int cpu = smp_processor_id();
	struct ring_buffer_handle h;
	struct ring_buffer_cpu_stats st;
	u8 small[sizeof(struct rbt_rec)];
	u8 buf[RING_BUFFER_MAX_EVENT];

	KUNIT_EXPECT_NULL(test, ring_buffer_lock_reserve(
					b, RING_BUFFER_MAX_EVENT + 1, &h));
	ring_buffer_record_disable(b);
	KUNIT_EXPECT_EQ(test, rbt_write(b, 64, 0, 0), -EBUSY);
	ring_buffer_record_enable(b);
	KUNIT_EXPECT_EQ(test, rbt_write(b, 64, 0, 1), 0);
	/* Too long for the reader's buffer: consumed, and said so. */
	KUNIT_EXPECT_EQ(test,
			ring_buffer_consume(b, cpu, small, sizeof(small), NULL,
					    NULL),
			-EMSGSIZE);
	KUNIT_EXPECT_EQ(
		test, ring_buffer_consume(b, cpu, buf, sizeof(buf), NULL, NULL),
		0);
	ring_buffer_cpu_stats(b, cpu, &st);
	KUNIT_EXPECT_EQ(test, st.written, 1);
	KUNIT_EXPECT_EQ(test, st.read, 1);
}

/* ring_buffer_write(): a record copied in whole; refused while disabled. */
static void rbt_test_write_copy(struct kunit *test)
{
	struct trace_buffer *b = rbt_alloc(test, 2 * PAGE_SIZE);
	unsigned int cpu = smp_processor_id(), len = rbt_len(5);
	u8 rec[RING_BUFFER_MAX_EVENT], buf[RING_BUFFER_MAX_EVENT];

	rbt_fill(rec, len, 3, 5);
	KUNIT_EXPECT_EQ(test, ring_buffer_write(b, len, rec), 0);
	ring_buffer_record_disable(b);
	KUNIT_EXPECT_EQ(test, ring_buffer_write(b, len, rec), -EBUSY);
	ring_buffer_record_enable(b);
	KUNIT_EXPECT_EQ(
		test, ring_buffer_consume(b, cpu, buf, sizeof(buf), NULL, NULL),
		len);
	KUNIT_EXPECT_TRUE(test, rbt_whole(buf, len, cpu));
	KUNIT_EXPECT_EQ(test, memcmp(buf, rec, len), 0);
	KUNIT_EXPECT_EQ(
		test, ring_buffer_consume(b, cpu, buf, sizeof(buf), NULL, NULL),
		0);
}

/* The load: a writer thread per CPU, interrupts writing as well. */
struct rbt_load {
	struct trace_buffer *b;
	int stop;
	atomic_t running;
	u32 irq_n[NR_CPUS]; /* each CPU's interrupt writer's count */
	u64 failed; /* reserves refused (must stay 0) */
};

static int rbt_writer_fn(void *data)
{
	struct rbt_load *ld = data;
	u16 me = smp_processor_id();
	u32 n;

	for (n = 0; !READ_ONCE(ld->stop); n++) {
		if (rbt_write(ld->b, rbt_len(n), me, n))
			__atomic_fetch_add(&ld->failed, 1, __ATOMIC_RELAXED);
		if (!(n & 255))
			cond_resched();
	}
	atomic_dec(&ld->running);
	kthread_wait_stop();
	return 0;
}

/* Cross-call on every other CPU: a record from interrupt context. */
static void rbt_irq_write(void *data)
{
	struct rbt_load *ld = data;
	unsigned int cpu = smp_processor_id();

	if (rbt_write(ld->b, rbt_len(ld->irq_n[cpu]), NR_CPUS + cpu,
		      ld->irq_n[cpu]))
		__atomic_fetch_add(&ld->failed, 1, __ATOMIC_RELAXED);
	ld->irq_n[cpu]++;
}

/* What the reader checks per CPU. */
struct rbt_seen {
	u32 next_n[2 * NR_CPUS]; /* per writer: the count expected */
	u64 read, lost, torn, disorder;
};

/* Takes every record available now; checks each. */
static void rbt_drain(struct trace_buffer *b, struct rbt_seen *seen)
{
	u8 buf[RING_BUFFER_MAX_EVENT];
	unsigned long lost;
	unsigned int cpu;
	int len;

	for_each_online_cpu(cpu) {
		while ((len = ring_buffer_consume(b, cpu, buf, sizeof(buf),
						  NULL, &lost)) > 0) {
			struct rbt_rec *r = (void *)buf;

			seen[cpu].read++;
			seen[cpu].lost += lost;
			if (!rbt_whole(buf, len, cpu)) {
				seen[cpu].torn++;
				continue;
			}
			/* A writer's records come in order, gaps allowed. */
			if (r->n < seen[cpu].next_n[r->writer])
				seen[cpu].disorder++;
			seen[cpu].next_n[r->writer] = r->n + 1;
		}
	}
}

static void rbt_start_writers(struct kunit *test, struct rbt_load *ld,
			      struct task_struct **t)
{
	unsigned int cpu;

	for_each_online_cpu(cpu) {
		t[cpu] = kthread_run_on_cpu(rbt_writer_fn, ld, cpu, "rbt_w/%u");
		if (IS_ERR(t[cpu])) {
			t[cpu] = NULL;
			KUNIT_FAIL(test, "no writer thread for CPU%u", cpu);
			continue;
		}
		atomic_inc(&ld->running);
	}
}

/* Per CPU: no torn record, order kept, written = read + overrun. */
static void rbt_check_cpu(struct kunit *test, struct rbt_load *ld,
			  struct rbt_seen *s, unsigned int cpu)
{
	struct ring_buffer_cpu_stats st;

	ring_buffer_cpu_stats(ld->b, cpu, &st);
	KUNIT_EXPECT_EQ(test, s->torn, 0);
	KUNIT_EXPECT_EQ(test, s->disorder, 0);
	KUNIT_EXPECT_EQ(test, st.read, s->read);
	KUNIT_EXPECT_EQ(test, st.overrun, s->lost);
	KUNIT_EXPECT_EQ(test, st.written, st.read + st.overrun);
	kunit_info(test, "CPU%u: %llu written, %llu read, %llu overwritten",
		   cpu, st.written, st.read, st.overrun);
}

static void rbt_test_load_all_cpus(struct kunit *test)
{
	struct rbt_load *ld = kunit_kzalloc(test, sizeof(*ld), GFP_KERNEL);
	struct rbt_seen *seen =
		kunit_kzalloc(test, NR_CPUS * sizeof(*seen), GFP_KERNEL);
	struct task_struct *t[NR_CPUS] = { NULL };
	u64 end = get_cycles() + (u64)rbt_load_ms * tsc_khz, overrun = 0;
	unsigned int cpu;

	KUNIT_ASSERT_NOT_NULL(test, ld);
	KUNIT_ASSERT_NOT_NULL(test, seen);
	ld->b = rbt_alloc(test, 4 * PAGE_SIZE);
	rbt_start_writers(test, ld, t);
	while (get_cycles() < end) {
		rbt_drain(ld->b, seen);
		smp_call_function(rbt_irq_write, ld, 1);
		msleep(1);
	}
	WRITE_ONCE(ld->stop, 1);
	for_each_online_cpu(cpu)
		if (t[cpu])
			kthread_stop(t[cpu]);
	rbt_drain(ld->b, seen);
	KUNIT_EXPECT_EQ(test, ld->failed, 0);
	for_each_online_cpu(cpu) {
		rbt_check_cpu(test, ld, &seen[cpu], cpu);
		overrun += seen[cpu].lost;
	}
	/* 4 pages a CPU cannot hold what the writers wrote: some was lost. */
	KUNIT_EXPECT_GT(test, overrun, 0);
}

static struct kunit_case rbt_cases[] = { KUNIT_CASE(rbt_test_write_read),
					 KUNIT_CASE(rbt_test_overwrite_oldest),
					 KUNIT_CASE(rbt_test_reader_lapped),
					 KUNIT_CASE(rbt_test_refusals),
					 KUNIT_CASE(rbt_test_write_copy),
					 KUNIT_CASE(rbt_test_load_all_cpus),
					 {} };

static struct kunit_suite rbt_suite = {
	.name = "ring_buffer",
	.exit = rbt_exit,
	.test_cases = rbt_cases,
};
kunit_test_suite(rbt_suite);
