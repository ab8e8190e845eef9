// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "cpu_hotplug_lock": the per-CPU rwsem
 * (<linux/percpu-rwsem.h>) on a lock of its own, clt_sem, and the CPU
 * hotplug lock built on it (<linux/cpu.h>): readers share it from every
 * CPU, the fast path stays on its own CPU's count, a writer waits for the
 * readers inside and new readers sleep while it holds the lock, the counts
 * stay exact under a storm, and every misuse WARNs once and goes on.
 *
 * Every wait on another thread is bounded: a case fails rather than hang.
 * A thread that is still stuck when its case gives up is left alone (not
 * stopped), with its data in static storage, so that it cannot hang the
 * run or write into a dead stack frame.
 */
#include <linux/kernel.h>
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/jump_label.h>
#include <linux/kthread.h>
#include <linux/percpu-rwsem.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <kunit/test.h>

#define CLT_WAIT_MS 5000
#define CLT_STORM_MS 60000
#define CLT_STORM_OPS 10000 /* per thread, two threads a CPU */

DEFINE_STATIC_PERCPU_RWSEM(clt_sem);

/* Waits, yielding, until cond(arg) or ms pass: the last cond(). */
static bool clt_wait_ms(bool (*cond)(void *arg), void *arg, unsigned int ms)
{
	u64 end = ktime_get_ns() + (u64)ms * 1000000;
	bool ok;

	while (!(ok = cond(arg)) && ktime_get_ns() < end)
		yield();
	return ok;
}

static bool clt_wait_for(bool (*cond)(void *arg), void *arg)
{
	return clt_wait_ms(cond, arg, CLT_WAIT_MS);
}

static bool clt_flag_set(void *arg)
{
	return READ_ONCE(*(int *)arg) != 0;
}

struct clt_target {
	atomic_t *v;
	int want;
};

static bool clt_atomic_reached(void *arg)
{
	struct clt_target *t = arg;

	return atomic_read(t->v) == t->want;
}

/* Asleep for good: in a sleeping state and switched out. */
static bool clt_asleep(void *arg)
{
	struct task_struct *t = arg;

	return READ_ONCE(t->state) == TASK_UNINTERRUPTIBLE &&
	       !READ_ONCE(t->on_cpu);
}

/* A writer has set block and sleeps, waiting for the readers: it is t. */
static bool clt_writer_waits(void *arg)
{
	struct task_struct *t = arg;

	return READ_ONCE(cpu_hotplug_lock.block) &&
	       percpu_rwsem_writer(&cpu_hotplug_lock) == t &&
	       !READ_ONCE(cpu_hotplug_lock.writer) && clt_asleep(t);
}

/* Another online CPU than this one if there is one, else this one. */
static unsigned int clt_other_cpu(void)
{
	unsigned int cpu, self = smp_processor_id();

	for_each_online_cpu(cpu)
		if (cpu != self)
			return cpu;
	return self;
}

/*
 * Stops t if it got to done (it then sleeps in kthread_wait_stop());
 * otherwise it is stuck in a lock: fail and leave it be.
 */
static void clt_stop(struct kunit *test, struct task_struct *t, int *done)
{
	if (!t || IS_ERR(t))
		return;
	if (!clt_wait_for(clt_flag_set, done)) {
		KUNIT_FAIL(test, "%s/%d is stuck: left running", t->comm, t->pid);
		return;
	}
	kthread_stop(t);
}

/* Readers on every CPU at once never block each other. */

static struct {
	atomic_t inside; /* threads holding both locks */
	atomic_t all_in; /* threads that saw every thread inside */
	int n;
	int done[2 * NR_CPUS];
} clt_share;

static int clt_share_fn(void *arg)
{
	int *done = arg;
	struct clt_target all = { &clt_share.inside, clt_share.n };

	cpus_read_lock();
	percpu_down_read(&clt_sem);
	atomic_inc(&clt_share.inside);
	if (clt_wait_for(clt_atomic_reached, &all))
		atomic_inc(&clt_share.all_in);
	percpu_up_read(&clt_sem);
	cpus_read_unlock();
	WRITE_ONCE(*done, 1);
	kthread_wait_stop();
	return 0;
}

static void cpu_hotplug_lock_readers_share(struct kunit *test)
{
	unsigned long slow = clt_sem.slow_reads;
	unsigned long hp_slow = cpu_hotplug_lock.slow_reads;
	struct task_struct *t[2 * NR_CPUS];
	unsigned int cpu, i = 0, n = 2 * num_online_cpus();

	memset(&clt_share, 0, sizeof(clt_share));
	clt_share.n = n;
	for_each_online_cpu(cpu) {
		t[i] = kthread_run_on_cpu(clt_share_fn, &clt_share.done[i], cpu,
					  "clt_share/%u");
		KUNIT_ASSERT_FALSE(test, IS_ERR(t[i]));
		i++;
		t[i] = kthread_run_on_cpu(clt_share_fn, &clt_share.done[i], cpu,
					  "clt_share/%u");
		KUNIT_ASSERT_FALSE(test, IS_ERR(t[i]));
		i++;
	}
	for (i = 0; i < n; i++)
		clt_stop(test, t[i], &clt_share.done[i]);
	KUNIT_EXPECT_EQ(test, atomic_read(&clt_share.all_in), (int)n);
	/* Nobody took the slow path: nobody waited. */
	KUNIT_EXPECT_EQ(test, clt_sem.slow_reads, slow);
	KUNIT_EXPECT_EQ(test, cpu_hotplug_lock.slow_reads, hp_slow);
	KUNIT_EXPECT_EQ(test, percpu_rwsem_readers(&clt_sem), 0);
}

/* The reader's fast path changes its own CPU's count and no other. */

static struct {
	int before[NR_CPUS], inside[NR_CPUS], after[NR_CPUS];
	unsigned int cpu_in, cpu_out;
	int done;
} clt_local;

static void clt_counts(int *counts)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		counts[cpu] = READ_ONCE(*per_cpu_ptr(clt_sem.read_count, cpu));
}

static int clt_local_fn(void *unused)
{
	clt_counts(clt_local.before);
	clt_local.cpu_in = smp_processor_id();
	percpu_down_read(&clt_sem);
	clt_counts(clt_local.inside);
	percpu_up_read(&clt_sem);
	clt_local.cpu_out = smp_processor_id();
	clt_counts(clt_local.after);
	WRITE_ONCE(clt_local.done, 1);
	kthread_wait_stop();
	return 0;
}

static void clt_check_local(struct kunit *test, unsigned int cpu)
{
	unsigned int c;

	KUNIT_EXPECT_EQ(test, clt_local.cpu_in, cpu);
	KUNIT_EXPECT_EQ(test, clt_local.cpu_out, cpu);
	for_each_possible_cpu(c) {
		KUNIT_EXPECT_EQ(test, clt_local.inside[c],
				clt_local.before[c] + (c == cpu));
		KUNIT_EXPECT_EQ(test, clt_local.after[c], clt_local.before[c]);
	}
}

static void cpu_hotplug_lock_fast_path_local(struct kunit *test)
{
	unsigned long slow = clt_sem.slow_reads;
	struct task_struct *t;
	unsigned int cpu;

	for_each_online_cpu(cpu) {
		memset(&clt_local, 0, sizeof(clt_local));
		t = kthread_run_on_cpu(clt_local_fn, NULL, cpu, "clt_local/%u");
		KUNIT_ASSERT_FALSE(test, IS_ERR(t));
		clt_stop(test, t, &clt_local.done);
		clt_check_local(test, cpu);
	}
	KUNIT_EXPECT_EQ(test, clt_sem.slow_reads, slow);
	KUNIT_EXPECT_EQ(test, READ_ONCE(clt_sem.block), 0);
}

/* A writer (on another CPU) waits, asleep, for a reader holding the lock. */

static struct {
	int got; /* the writer holds the lock */
	int done;
} clt_wr;

static int clt_writer_fn(void *unused)
{
	cpus_write_lock();
	WRITE_ONCE(clt_wr.got, 1);
	cpus_write_unlock();
	WRITE_ONCE(clt_wr.done, 1);
	kthread_wait_stop();
	return 0;
}

static struct task_struct *clt_start_writer(struct kunit *test)
{
	struct task_struct *w;

	memset(&clt_wr, 0, sizeof(clt_wr));
	w = kthread_run_on_cpu(clt_writer_fn, NULL, clt_other_cpu(),
			       "clt_writer/%u");
	KUNIT_EXPECT_FALSE(test, IS_ERR(w));
	return IS_ERR(w) ? NULL : w;
}

static void cpu_hotplug_lock_writer_waits(struct kunit *test)
{
	struct task_struct *w;

	cpus_read_lock();
	w = clt_start_writer(test);
	if (!w) {
		cpus_read_unlock();
		return;
	}
	KUNIT_EXPECT_TRUE(test, clt_wait_for(clt_writer_waits, w));
	msleep(20); /* the reader sleeps too: the writer still waits */
	KUNIT_EXPECT_EQ(test, READ_ONCE(clt_wr.got), 0);
	KUNIT_EXPECT_TRUE(test, clt_writer_waits(w));
	KUNIT_EXPECT_TRUE(test, cpus_lock_held());
	cpus_read_unlock();
	KUNIT_EXPECT_TRUE(test, clt_wait_for(clt_flag_set, &clt_wr.got));
	clt_stop(test, w, &clt_wr.done);
	KUNIT_EXPECT_EQ(test, READ_ONCE(cpu_hotplug_lock.block), 0);
	KUNIT_EXPECT_PTR_EQ(test, READ_ONCE(cpu_hotplug_lock.writer), NULL);
}

/* Readers arriving while the writer holds the lock sleep, then all get in. */

static struct {
	atomic_t got;
	int done[NR_CPUS];
} clt_rd;

static int clt_reader_fn(void *arg)
{
	cpus_read_lock();
	atomic_inc(&clt_rd.got);
	cpus_read_unlock();
	WRITE_ONCE(*(int *)arg, 1);
	kthread_wait_stop();
	return 0;
}

static void cpu_hotplug_lock_readers_sleep(struct kunit *test)
{
	unsigned long slow = cpu_hotplug_lock.slow_reads;
	unsigned int cpu, i = 0, n = num_online_cpus();
	struct task_struct *t[NR_CPUS];

	memset(&clt_rd, 0, sizeof(clt_rd));
	cpus_write_lock();
	KUNIT_EXPECT_TRUE(test, percpu_rwsem_is_write_owner(&cpu_hotplug_lock));
	for_each_online_cpu(cpu) {
		t[i] = kthread_run_on_cpu(clt_reader_fn, &clt_rd.done[i], cpu,
					  "clt_reader/%u");
		if (IS_ERR(t[i])) {
			KUNIT_FAIL(test, "cannot start a reader");
			t[i] = NULL;
		} else {
			KUNIT_EXPECT_TRUE(test, clt_wait_for(clt_asleep, t[i]));
		}
		i++;
	}
	msleep(20); /* the writer sleeps too: nobody gets in */
	KUNIT_EXPECT_EQ(test, atomic_read(&clt_rd.got), 0);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_TRUE(test, !t[i] || clt_asleep(t[i]));
	cpus_write_unlock();
	KUNIT_EXPECT_TRUE(test, clt_wait_for(clt_atomic_reached,
			&(struct clt_target){ &clt_rd.got, (int)n }));
	for (i = 0; i < n; i++)
		clt_stop(test, t[i], &clt_rd.done[i]);
	KUNIT_EXPECT_EQ(test, cpu_hotplug_lock.slow_reads, slow + n);
}

/* cpus_read_trylock() never waits: it fails while a writer wants the lock. */
static void cpu_hotplug_lock_trylock(struct kunit *test)
{
	struct task_struct *w;

	KUNIT_ASSERT_EQ(test, cpus_read_trylock(), 1);
	KUNIT_EXPECT_EQ(test, current->cpus_read_depth, 1U);
	KUNIT_EXPECT_EQ(test, cpus_read_trylock(), 1); /* nested: granted */
	KUNIT_EXPECT_EQ(test, current->cpus_read_depth, 2U);
	cpus_read_unlock();
	w = clt_start_writer(test);
	if (w) {
		/* Held by us, wanted by w: our nested trylock still gets it. */
		KUNIT_EXPECT_TRUE(test, clt_wait_for(clt_writer_waits, w));
		KUNIT_EXPECT_EQ(test, cpus_read_trylock(), 1);
		cpus_read_unlock();
	}
	cpus_read_unlock();
	KUNIT_EXPECT_FALSE(test, cpus_lock_held());
	clt_stop(test, w, &clt_wr.done);

	cpus_write_lock();
	/* Another task's trylock fails at once while the writer holds it. */
	KUNIT_EXPECT_FALSE(test, percpu_down_read_trylock(&cpu_hotplug_lock));
	cpus_write_unlock();
	KUNIT_EXPECT_TRUE(test, percpu_down_read_trylock(&clt_sem));
	percpu_up_read(&clt_sem);
}

/*
 * The storm: two threads on every CPU take the lock for reading or (one
 * op in 8) for writing, yielding inside now and then. A writer must find
 * nobody else inside, a reader no writer; every op is counted once.
 */

struct clt_storm_ops {
	void (*read_lock)(void);
	void (*read_unlock)(void);
	void (*write_lock)(void);
	void (*write_unlock)(void);
};

static struct {
	const struct clt_storm_ops *ops;
	atomic_t readers; /* inside for reading */
	int writer_inside;
	unsigned long writes; /* plain: changed under the write lock only */
	atomic_t reads;
	atomic_t violations;
	int abort;
	int done[2 * NR_CPUS];
	atomic_t nr_done;
} clt_storm;

static bool clt_storm_is_write(unsigned int i, unsigned int op)
{
	return op % 8 == i % 8;
}

static void clt_storm_write(unsigned int op)
{
	unsigned long w;

	clt_storm.ops->write_lock();
	if (atomic_read(&clt_storm.readers) ||
	    READ_ONCE(clt_storm.writer_inside))
		atomic_inc(&clt_storm.violations);
	WRITE_ONCE(clt_storm.writer_inside, 1);
	w = READ_ONCE(clt_storm.writes);
	if (!(op & 3))
		yield(); /* let readers and writers find it held */
	WRITE_ONCE(clt_storm.writes, w + 1);
	WRITE_ONCE(clt_storm.writer_inside, 0);
	clt_storm.ops->write_unlock();
}

static void clt_storm_read(unsigned int op)
{
	clt_storm.ops->read_lock();
	atomic_inc(&clt_storm.readers);
	if (READ_ONCE(clt_storm.writer_inside))
		atomic_inc(&clt_storm.violations);
	if (!(op & 7))
		yield();
	if (READ_ONCE(clt_storm.writer_inside))
		atomic_inc(&clt_storm.violations);
	atomic_dec(&clt_storm.readers);
	atomic_inc(&clt_storm.reads);
	clt_storm.ops->read_unlock();
}

static int clt_storm_fn(void *arg)
{
	unsigned int i = (unsigned long)arg, op;

	for (op = 0; op < CLT_STORM_OPS && !READ_ONCE(clt_storm.abort); op++) {
		if (clt_storm_is_write(i, op))
			clt_storm_write(op);
		else
			clt_storm_read(op);
	}
	WRITE_ONCE(clt_storm.done[i], 1);
	atomic_inc(&clt_storm.nr_done);
	kthread_wait_stop();
	return 0;
}

static void clt_run_storm(struct kunit *test, const struct clt_storm_ops *ops,
			  struct percpu_rw_semaphore *sem)
{
	unsigned int cpu, i, op, n = 2 * num_online_cpus(), writes = 0;
	unsigned long slow = sem->slow_reads;
	struct task_struct *t[2 * NR_CPUS];
	u64 t0 = ktime_get_ns();

	memset(&clt_storm, 0, sizeof(clt_storm));
	clt_storm.ops = ops;
	for (i = 0; i < n; i++)
		for (op = 0; op < CLT_STORM_OPS; op++)
			writes += clt_storm_is_write(i, op);
	i = 0;
	for_each_online_cpu(cpu) {
		t[i] = kthread_run_on_cpu(clt_storm_fn, (void *)(long)i, cpu,
					  "clt_storm/%u");
		t[i + 1] = kthread_run_on_cpu(clt_storm_fn, (void *)(long)(i + 1),
					      cpu, "clt_storm/%u");
		KUNIT_ASSERT_FALSE(test, IS_ERR(t[i]) || IS_ERR(t[i + 1]));
		i += 2;
	}
	if (!clt_wait_ms(clt_atomic_reached,
			 &(struct clt_target){ &clt_storm.nr_done, (int)n },
			 CLT_STORM_MS)) {
		KUNIT_FAIL(test, "storm not done in %u ms: %d of %u threads done",
			   CLT_STORM_MS, atomic_read(&clt_storm.nr_done), n);
		WRITE_ONCE(clt_storm.abort, 1);
	}
	for (i = 0; i < n; i++)
		clt_stop(test, t[i], &clt_storm.done[i]);
	KUNIT_EXPECT_EQ(test, atomic_read(&clt_storm.violations), 0);
	KUNIT_EXPECT_EQ(test, clt_storm.writes, (unsigned long)writes);
	KUNIT_EXPECT_EQ(test, atomic_read(&clt_storm.reads),
			(int)(n * CLT_STORM_OPS - writes));
	KUNIT_EXPECT_EQ(test, READ_ONCE(sem->block), 0);
	KUNIT_EXPECT_PTR_EQ(test, READ_ONCE(sem->writer), NULL);
	/* The readers that found a writer slept: there was contention. */
	KUNIT_EXPECT_GT(test, sem->slow_reads, slow);
	kunit_info(test, "%u threads, %u writes, %lu slow reads, %llu ms",
		   n, writes, sem->slow_reads - slow,
		   (ktime_get_ns() - t0) / 1000000);
}

static void clt_sem_read_lock(void)
{
	percpu_down_read(&clt_sem);
}

static void clt_sem_read_unlock(void)
{
	percpu_up_read(&clt_sem);
}

static void clt_sem_write_lock(void)
{
	percpu_down_write(&clt_sem);
}

static void clt_sem_write_unlock(void)
{
	percpu_up_write(&clt_sem);
}

static const struct clt_storm_ops clt_sem_ops = {
	clt_sem_read_lock, clt_sem_read_unlock,
	clt_sem_write_lock, clt_sem_write_unlock,
};

static const struct clt_storm_ops clt_cpus_ops = {
	cpus_read_lock, cpus_read_unlock, cpus_write_lock, cpus_write_unlock,
};

static void cpu_hotplug_lock_storm_rwsem(struct kunit *test)
{
	clt_run_storm(test, &clt_sem_ops, &clt_sem);
	/* Only the sum means anything, and it is exact. */
	KUNIT_EXPECT_EQ(test, percpu_rwsem_readers(&clt_sem), 0);
}

static void cpu_hotplug_lock_storm_cpus(struct kunit *test)
{
	clt_run_storm(test, &clt_cpus_ops, &cpu_hotplug_lock);
}

/*
 * Misuse. Each WARNs once per call site (the static key: once per key),
 * with the text checked here, and the kernel goes on. The calls come from
 * noinline helpers so that the caller the WARN names is known.
 */

/*
 * After the call in such a helper: keeps it a call, not a tail jump, so
 * that the callee's _RET_IP_ (the caller its WARN names) is in the helper.
 */
#define clt_keep_call() barrier()

/* "<prefix><name of fn>+" as %pS prints it, without the offset. */
static void clt_fn_name(char *buf, size_t size, const char *prefix, void *fn)
{
	char *plus;

	snprintf(buf, size, "%s%pS", prefix, fn);
	plus = strchr(buf, '+');
	if (plus)
		plus[1] = '\0';
}

static bool clt_log_has_fn(u64 log, const char *prefix, void *fn)
{
	char buf[128];

	clt_fn_name(buf, sizeof(buf), prefix, fn);
	return printk_log_contains(log, buf);
}

/* "<what> by comm/pid" for task t. */
static bool clt_log_has_task(u64 log, const char *what, struct task_struct *t)
{
	char buf[128];

	snprintf(buf, sizeof(buf), "%s%s/%d", what, t->comm, t->pid);
	return printk_log_contains(log, buf);
}

static noinline void clt_nested_read(void)
{
	cpus_read_lock();
	clt_keep_call();
}

static struct {
	struct completion go;
	int held; /* the reader holds its first level */
	int nested; /* its nested calls returned */
	unsigned int depth; /* its cpus_read_depth then */
	int done;
} clt_nest;

static int clt_nest_fn(void *unused)
{
	cpus_read_lock();
	WRITE_ONCE(clt_nest.held, 1);
	if (wait_for_completion_timeout(&clt_nest.go,
					msecs_to_jiffies(CLT_WAIT_MS))) {
		clt_nested_read();
		clt_nested_read();
		clt_nest.depth = current->cpus_read_depth;
		WRITE_ONCE(clt_nest.nested, 1);
		cpus_read_unlock();
		cpus_read_unlock();
	}
	cpus_read_unlock();
	WRITE_ONCE(clt_nest.done, 1);
	kthread_wait_stop();
	return 0;
}

/*
 * A task holding the read lock takes it again while a writer waits for
 * it: Linux deadlocks (the nested reader waits for the writer, which waits
 * for the reader). Here it is granted at once, with a WARN naming the
 * caller and the writer; the writer gets in once the reader is done.
 */
static void cpu_hotplug_lock_nested_writer_waits(struct kunit *test)
{
	unsigned long warns;
	struct task_struct *r, *w;
	u64 log;

	memset(&clt_nest, 0, sizeof(clt_nest));
	init_completion(&clt_nest.go);
	r = kthread_run_on_cpu(clt_nest_fn, NULL, smp_processor_id(),
			       "clt_nest/%u");
	KUNIT_ASSERT_FALSE(test, IS_ERR(r));
	KUNIT_ASSERT_TRUE(test, clt_wait_for(clt_flag_set, &clt_nest.held));
	w = clt_start_writer(test);
	KUNIT_EXPECT_TRUE(test, w && clt_wait_for(clt_writer_waits, w));
	warns = nr_warnings;
	log = printk_log_end();
	complete(&clt_nest.go);
	KUNIT_EXPECT_TRUE(test, clt_wait_for(clt_flag_set, &clt_nest.nested));
	KUNIT_EXPECT_EQ(test, clt_nest.depth, 3U);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1); /* once per call site */
	KUNIT_EXPECT_TRUE(test, clt_log_has_task(log, "cpus_read_lock: nested call by ", r));
	KUNIT_EXPECT_TRUE(test, clt_log_has_fn(log, "from ", clt_nested_read));
	if (w) {
		KUNIT_EXPECT_TRUE(test, clt_log_has_task(log, "while ", w));
		KUNIT_EXPECT_TRUE(test, printk_log_contains(log,
			"waits in cpus_write_lock(): granted (Linux deadlocks here)"));
		KUNIT_EXPECT_TRUE(test,
				  clt_wait_for(clt_flag_set, &clt_wr.got));
	}
	clt_stop(test, r, &clt_nest.done);
	clt_stop(test, w, &clt_wr.done);
	/* Without a waiting writer, nesting is silent. */
	warns = nr_warnings;
	cpus_read_lock();
	clt_nested_read();
	KUNIT_EXPECT_EQ(test, current->cpus_read_depth, 2U);
	cpus_read_unlock();
	cpus_read_unlock();
	KUNIT_EXPECT_EQ(test, nr_warnings, warns);
	KUNIT_EXPECT_FALSE(test, cpus_lock_held());
}

static noinline void clt_read_in_write(void)
{
	cpus_read_lock();
	clt_keep_call();
}

static noinline int clt_trylock_in_write(void)
{
	int ret = cpus_read_trylock();

	clt_keep_call();
	return ret;
}

static struct {
	int readers_before, readers_after;
	int trylock, held, still_writer;
	unsigned int depth;
	int done;
} clt_rw;

static int clt_rw_fn(void *unused)
{
	int i;

	cpus_write_lock();
	clt_rw.readers_before = percpu_rwsem_readers(&cpu_hotplug_lock);
	clt_read_in_write();
	clt_read_in_write();
	clt_rw.trylock = clt_trylock_in_write();
	clt_rw.held = cpus_lock_held();
	clt_rw.depth = current->cpus_read_depth;
	for (i = 0; i < 3; i++)
		cpus_read_unlock();
	clt_rw.readers_after = percpu_rwsem_readers(&cpu_hotplug_lock);
	clt_rw.still_writer = percpu_rwsem_is_write_owner(&cpu_hotplug_lock);
	cpus_write_unlock();
	WRITE_ONCE(clt_rw.done, 1);
	kthread_wait_stop();
	return 0;
}

/*
 * The writer takes the read lock (a hotplug callback calling the plain
 * variant of an API): Linux deadlocks. Here it WARNs ("use the
 * _cpuslocked variant") and does nothing, and so does the matching
 * unlock: the writer still holds the lock, no count moved.
 */
static void cpu_hotplug_lock_read_in_write(struct kunit *test)
{
	unsigned long warns = nr_warnings;
	u64 log = printk_log_end();
	struct task_struct *t;

	memset(&clt_rw, 0, sizeof(clt_rw));
	t = kthread_run_on_cpu(clt_rw_fn, NULL, clt_other_cpu(), "clt_rw/%u");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	KUNIT_EXPECT_TRUE(test, clt_wait_for(clt_flag_set, &clt_rw.done));
	KUNIT_EXPECT_EQ(test, clt_rw.trylock, 1);
	KUNIT_EXPECT_TRUE(test, clt_rw.held);
	KUNIT_EXPECT_EQ(test, clt_rw.depth, 0U);
	KUNIT_EXPECT_EQ(test, clt_rw.readers_after, clt_rw.readers_before);
	KUNIT_EXPECT_TRUE(test, clt_rw.still_writer);
	/* One per call site: two calls of clt_read_in_write(), one trylock. */
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 2);
	KUNIT_EXPECT_TRUE(test, clt_log_has_task(log, "cpus_read_lock: called by ", t));
	KUNIT_EXPECT_TRUE(test, clt_log_has_fn(log, "from ", clt_read_in_write));
	KUNIT_EXPECT_TRUE(test, clt_log_has_task(log, "cpus_read_trylock: called by ", t));
	KUNIT_EXPECT_TRUE(test, clt_log_has_fn(log, "from ", clt_trylock_in_write));
	KUNIT_EXPECT_TRUE(test, printk_log_contains(log,
		"which holds cpus_write_lock(): use the _cpuslocked variant"));
	clt_stop(test, t, &clt_rw.done);
	KUNIT_EXPECT_EQ(test, READ_ONCE(cpu_hotplug_lock.block), 0);
	/* The lock works as before. */
	cpus_read_lock();
	KUNIT_EXPECT_EQ(test, current->cpus_read_depth, 1U);
	cpus_read_unlock();
	KUNIT_EXPECT_FALSE(test, cpus_lock_held());
}

static noinline void clt_unbalanced_unlock(void)
{
	cpus_read_unlock();
	clt_keep_call();
}

static noinline void clt_foreign_write_unlock(void)
{
	cpus_write_unlock();
	clt_keep_call();
}

/*
 * cpus_read_unlock() without a read hold, cpus_write_unlock() without the
 * write lock: a WARN each, once per call site, and nothing changes.
 */
static void cpu_hotplug_lock_unbalanced(struct kunit *test)
{
	int readers = percpu_rwsem_readers(&cpu_hotplug_lock);
	unsigned long warns = nr_warnings;
	u64 log = printk_log_end();

	clt_unbalanced_unlock();
	clt_unbalanced_unlock();
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	KUNIT_EXPECT_TRUE(test, clt_log_has_task(log,
		"cpus_read_unlock: unbalanced call by ", current));
	KUNIT_EXPECT_TRUE(test, clt_log_has_fn(log, "from ", clt_unbalanced_unlock));
	KUNIT_EXPECT_TRUE(test, printk_log_contains(log,
		"which holds no cpus_read_lock(): ignored"));
	KUNIT_EXPECT_EQ(test, current->cpus_read_depth, 0U);
	KUNIT_EXPECT_EQ(test, percpu_rwsem_readers(&cpu_hotplug_lock), readers);

	/* An extra unlock after a balanced pair is the same misuse. */
	cpus_read_lock();
	cpus_read_unlock();
	clt_unbalanced_unlock();
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	KUNIT_EXPECT_EQ(test, percpu_rwsem_readers(&cpu_hotplug_lock), readers);

	clt_foreign_write_unlock();
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 2);
	KUNIT_EXPECT_TRUE(test, clt_log_has_task(log,
		"cpus_write_unlock: called by ", current));
	KUNIT_EXPECT_TRUE(test, clt_log_has_fn(log, "from ", clt_foreign_write_unlock));
	KUNIT_EXPECT_EQ(test, READ_ONCE(cpu_hotplug_lock.block), 0);
	KUNIT_EXPECT_FALSE(test,
			   mutex_is_locked(&cpu_hotplug_lock.writer_mutex));
	cpus_read_lock();
	KUNIT_EXPECT_TRUE(test, cpus_lock_held());
	cpus_read_unlock();
	KUNIT_EXPECT_EQ(test, percpu_rwsem_readers(&cpu_hotplug_lock), readers);
}

static noinline void clt_open_read(void)
{
	cpus_read_lock();
	clt_keep_call();
}

static noinline void clt_write_unlock_open(void)
{
	cpus_write_unlock();
	clt_keep_call();
}

static noinline void clt_open_late_unlock(void)
{
	cpus_read_unlock();
	clt_keep_call();
}

static struct {
	int done;
} clt_open;

static int clt_open_fn(void *unused)
{
	cpus_write_lock();
	clt_open_read();
	clt_write_unlock_open(); /* with that read still open */
	clt_open_late_unlock(); /* now it matches nothing */
	WRITE_ONCE(clt_open.done, 1);
	kthread_wait_stop();
	return 0;
}

/*
 * The writer drops the write lock with a no-op read of its own still
 * open: the WARN says so and the read is forgotten, so that the next
 * writer does not inherit it; its late unlock is then unbalanced.
 */
static void cpu_hotplug_lock_write_unlock_open(struct kunit *test)
{
	unsigned long warns = nr_warnings;
	u64 log = printk_log_end();
	struct task_struct *t;

	memset(&clt_open, 0, sizeof(clt_open));
	t = kthread_run_on_cpu(clt_open_fn, NULL, smp_processor_id(),
			       "clt_open/%u");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	KUNIT_EXPECT_TRUE(test, clt_wait_for(clt_flag_set, &clt_open.done));
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 3);
	KUNIT_EXPECT_TRUE(test, clt_log_has_fn(log, "from ", clt_open_read));
	KUNIT_EXPECT_TRUE(test, clt_log_has_fn(log, "from ", clt_write_unlock_open));
	KUNIT_EXPECT_TRUE(test, printk_log_contains(log,
		"with 1 cpus_read_lock() of its own still open: forgotten"));
	KUNIT_EXPECT_TRUE(test, clt_log_has_task(log,
		"cpus_read_unlock: unbalanced call by ", t));
	KUNIT_EXPECT_TRUE(test, clt_log_has_fn(log, "from ", clt_open_late_unlock));
	clt_stop(test, t, &clt_open.done);
	KUNIT_EXPECT_EQ(test, READ_ONCE(cpu_hotplug_lock.block), 0);
	KUNIT_EXPECT_PTR_EQ(test, READ_ONCE(cpu_hotplug_lock.writer), NULL);
}

static noinline void clt_assert(void)
{
	lockdep_assert_cpus_held();
}

static noinline void clt_assert_caller(void)
{
	clt_assert();
	clt_keep_call();
}

static struct {
	int done;
} clt_aw;

static int clt_assert_write_fn(void *unused)
{
	cpus_write_lock();
	clt_assert();
	cpus_write_unlock();
	WRITE_ONCE(clt_aw.done, 1);
	kthread_wait_stop();
	return 0;
}

/*
 * lockdep_assert_cpus_held() is silent under the read lock and under the
 * write lock (the writer's callbacks), and WARNs once per call site
 * otherwise, naming the task, the function and its caller.
 */
static void cpu_hotplug_lock_assert_held(struct kunit *test)
{
	unsigned long warns = nr_warnings;
	struct task_struct *t;
	u64 log;

	cpus_read_lock();
	clt_assert();
	cpus_read_unlock();
	memset(&clt_aw, 0, sizeof(clt_aw));
	t = kthread_run_on_cpu(clt_assert_write_fn, NULL, clt_other_cpu(),
			       "clt_aw/%u");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	clt_stop(test, t, &clt_aw.done);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns);

	log = printk_log_end();
	clt_assert_caller();
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	KUNIT_EXPECT_TRUE(test, clt_log_has_task(log,
		"lockdep: cpu_hotplug_lock not held by ", current));
	KUNIT_EXPECT_TRUE(test, clt_log_has_fn(log, "in ", clt_assert));
	KUNIT_EXPECT_TRUE(test, clt_log_has_fn(log, "called from ", clt_assert_caller));
	clt_assert();
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);

	/* The rwsem's own assertion: held by a reader, then by nobody. */
	percpu_down_read(&clt_sem);
	percpu_rwsem_assert_held(&clt_sem);
	percpu_up_read(&clt_sem);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	log = printk_log_end();
	percpu_rwsem_assert_held(&clt_sem);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 2);
	KUNIT_EXPECT_TRUE(test, printk_log_contains(log,
		"percpu_rwsem clt_sem: not held, in cpu_hotplug_lock_assert_held+"));
}

static DEFINE_STATIC_KEY_FALSE(clt_key);

static noinline bool clt_key_branch(void)
{
	return static_branch_unlikely(&clt_key);
}

static noinline void clt_enable_unlocked(void)
{
	static_branch_enable_cpuslocked(&clt_key);
	clt_keep_call();
}

/*
 * The _cpuslocked static key calls without the hotplug lock WARN, naming
 * the key and the caller (once per key), take the lock for the call and
 * do their work; with the lock held they are silent.
 */
static void cpu_hotplug_lock_static_key_cpuslocked(struct kunit *test)
{
	unsigned long warns = nr_warnings;
	u64 log;

	cpus_read_lock();
	static_branch_enable_cpuslocked(&clt_key);
	KUNIT_EXPECT_TRUE(test, clt_key_branch());
	static_branch_disable_cpuslocked(&clt_key);
	KUNIT_EXPECT_FALSE(test, clt_key_branch());
	cpus_read_unlock();
	KUNIT_EXPECT_EQ(test, nr_warnings, warns);

	log = printk_log_end();
	clt_enable_unlocked();
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	KUNIT_EXPECT_TRUE(test, printk_log_contains(log, "static key clt_key+0x0/"));
	KUNIT_EXPECT_TRUE(test, printk_log_contains(log,
		"changed by a _cpuslocked call without cpus_read_lock() held (taken for the call)"));
	/* The WARN's place is the caller, not a line of jump_label.c. */
	KUNIT_EXPECT_TRUE(test, clt_log_has_fn(log, " at ", clt_enable_unlocked));
	KUNIT_EXPECT_FALSE(test, printk_log_contains(log, "at kernel/jump_label/core.c:"));
	KUNIT_EXPECT_TRUE(test, clt_key_branch());
	KUNIT_EXPECT_TRUE(test, static_key_enabled(&clt_key));
	KUNIT_EXPECT_FALSE(test, cpus_lock_held());

	/* Once per key: the other calls are quiet, and work. */
	static_branch_disable_cpuslocked(&clt_key);
	KUNIT_EXPECT_FALSE(test, clt_key_branch());
	KUNIT_EXPECT_TRUE(test, static_branch_inc_cpuslocked(&clt_key));
	KUNIT_EXPECT_TRUE(test, clt_key_branch());
	static_branch_dec_cpuslocked(&clt_key);
	KUNIT_EXPECT_FALSE(test, clt_key_branch());
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	KUNIT_EXPECT_FALSE(test, cpus_lock_held());
	KUNIT_EXPECT_EQ(test, current->cpus_read_depth, 0U);
}

static struct kunit_case cpu_hotplug_lock_test_cases[] = {
	KUNIT_CASE(cpu_hotplug_lock_readers_share),
	KUNIT_CASE(cpu_hotplug_lock_fast_path_local),
	KUNIT_CASE(cpu_hotplug_lock_writer_waits),
	KUNIT_CASE(cpu_hotplug_lock_readers_sleep),
	KUNIT_CASE(cpu_hotplug_lock_trylock),
	KUNIT_CASE(cpu_hotplug_lock_storm_rwsem),
	KUNIT_CASE(cpu_hotplug_lock_storm_cpus),
	KUNIT_CASE(cpu_hotplug_lock_nested_writer_waits),
	KUNIT_CASE(cpu_hotplug_lock_read_in_write),
	KUNIT_CASE(cpu_hotplug_lock_unbalanced),
	KUNIT_CASE(cpu_hotplug_lock_write_unlock_open),
	KUNIT_CASE(cpu_hotplug_lock_assert_held),
	KUNIT_CASE(cpu_hotplug_lock_static_key_cpuslocked),
	{}
};

static struct kunit_suite cpu_hotplug_lock_test_suite = {
	.name = "cpu_hotplug_lock",
	.test_cases = cpu_hotplug_lock_test_cases,
};
kunit_test_suite(cpu_hotplug_lock_test_suite);
