// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "lockorder": the lock-order checker. An inversion (AB then
 * BA) and a three-lock cycle WARN once with both call sites, before the
 * lock can block, and the kernel goes on; consistent orders never WARN;
 * the held-lock stack with out-of-order release, trylocks and overflow;
 * full tables; a task that exits holding a lock; classes of mutex_init()
 * call sites; reader/writer acquisitions; and the kernel's own locks,
 * text_mutex taken before jump_label_mutex.
 *
 * The recorded orders are global and never forgotten, so every case uses
 * locks of its own. Every wait on another thread is bounded.
 */
#include <linux/kernel.h>
#include <linux/cpu.h>
#include <linux/jump_label.h>
#include <linux/kthread.h>
#include <linux/lockorder.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/timekeeping.h>
#include <linux/timer.h>
#include <asm/text-patching.h>
#include <kunit/test.h>

#define LOT_WAIT_MS 5000

/* Takes outer then inner, and lets both go. */
static noinline void lot_nest(struct mutex *outer, struct mutex *inner)
{
	mutex_lock(outer);
	mutex_lock(inner);
	mutex_unlock(inner);
	mutex_unlock(outer);
}

/* "<comm>/<pid> takes <taken> while holding <held>:" for the current task. */
static bool lot_log_has_takes(u64 log, const char *taken, const char *held)
{
	char buf[128];

	snprintf(buf, sizeof(buf),
		 "%s/%d takes %s while holding %s:", current->comm,
		 current->pid, taken, held);
	return printk_log_contains(log, buf);
}

static DEFINE_MUTEX(lot_a);
static DEFINE_MUTEX(lot_b);
static DEFINE_MUTEX(lot_k);

static noinline void lot_take_ab(void)
{
	mutex_lock(&lot_a);
	mutex_lock(&lot_b);
	mutex_unlock(&lot_b);
	mutex_unlock(&lot_a);
}

static noinline void lot_take_ba(void)
{
	mutex_lock(&lot_b);
	mutex_lock(&lot_a);
	mutex_unlock(&lot_a);
	mutex_unlock(&lot_b);
}

/*
 * A then B records A -> B; B then A WARNs once, naming both locks, the
 * two sites of this acquisition and the two of the recorded one. A second
 * B then A is quiet, the kernel goes on and both locks still work.
 */
static void lockorder_test_ab_ba(struct kunit *test)
{
	unsigned long warns = nr_warnings;
	u64 log = printk_log_end();

	lot_take_ab();
	KUNIT_EXPECT_EQ(test, nr_warnings, warns);
	KUNIT_EXPECT_TRUE(test, lockorder_order_recorded(&lot_a.dep_map,
							 &lot_b.dep_map));

	lot_take_ba();
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	KUNIT_EXPECT_TRUE(
		test,
		printk_log_contains(log, "lockorder: lock order inversion: "));
	KUNIT_EXPECT_TRUE(test, lot_log_has_takes(log, "lot_a", "lot_b"));
	KUNIT_EXPECT_TRUE(
		test, printk_log_contains(log, " lot_b taken at lot_take_ba+"));
	KUNIT_EXPECT_TRUE(
		test, printk_log_contains(log, ", then lot_a at lot_take_ba+"));
	KUNIT_EXPECT_TRUE(
		test, printk_log_contains(
			      log, "the recorded order is lot_a -> lot_b:\n"));
	KUNIT_EXPECT_TRUE(
		test, printk_log_contains(log, " lot_a taken at lot_take_ab+"));
	KUNIT_EXPECT_TRUE(
		test, printk_log_contains(log, ", then lot_b at lot_take_ab+"));
	KUNIT_EXPECT_TRUE(
		test,
		printk_log_contains(log, " at kernel/locking/lockorder.c:"));
	/* The inversion is no order: A -> B stays the one recorded. */
	KUNIT_EXPECT_FALSE(test, lockorder_order_recorded(&lot_b.dep_map,
							  &lot_a.dep_map));

	/*
	 * A -> K, then K -> B agrees with A -> B; a search that followed the
	 * reported B -> A would see B -> A -> K and a false cycle.
	 */
	lot_nest(&lot_a, &lot_k);
	lot_nest(&lot_k, &lot_b);

	log = printk_log_end();
	lot_take_ba();
	lot_take_ab();
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	KUNIT_EXPECT_FALSE(test, printk_log_contains(log, "lockorder:"));
	KUNIT_EXPECT_FALSE(test, mutex_is_locked(&lot_a));
	KUNIT_EXPECT_FALSE(test, mutex_is_locked(&lot_b));
	KUNIT_EXPECT_EQ(test, mutex_trylock(&lot_a), 1);
	KUNIT_EXPECT_EQ(test, mutex_trylock(&lot_b), 1);
	mutex_unlock(&lot_a);
	mutex_unlock(&lot_b);
	KUNIT_EXPECT_EQ(test, lockorder_depth(), 0);
}

static DEFINE_MUTEX(lot_c);
static DEFINE_MUTEX(lot_d);

struct lot_holder {
	struct mutex *lock;
	struct task_struct *waiter;
	atomic_t held;
	unsigned long warns_when_asleep; /* nr_warnings once waiter slept */
	bool waiter_slept;
};

static bool lot_atomic_set(void *arg)
{
	return atomic_read(arg) != 0;
}

static bool lot_asleep(void *arg)
{
	struct task_struct *t = arg;

	return READ_ONCE(t->state) == TASK_UNINTERRUPTIBLE &&
	       !READ_ONCE(t->on_cpu);
}

/* Holds h->lock until h->waiter sleeps on it, then notes the warnings. */
static int lot_holder_fn(void *data)
{
	struct lot_holder *h = data;

	mutex_lock(h->lock);
	atomic_set(&h->held, 1);
	h->waiter_slept = kunit_wait_for(lot_asleep, h->waiter, LOT_WAIT_MS);
	h->warns_when_asleep = nr_warnings;
	mutex_unlock(h->lock);
	kthread_wait_stop();
	return 0;
}

/*
 * The WARN comes before the lock blocks: with C -> D recorded, the test
 * holds D and takes C, which another thread holds until the test sleeps
 * on it; by then the WARN has been counted.
 */
static void lockorder_test_warns_before_blocking(struct kunit *test)
{
	struct lot_holder h = { .lock = &lot_c, .waiter = current };
	unsigned long warns;
	struct task_struct *t;

	lot_nest(&lot_c, &lot_d);
	warns = nr_warnings;
	atomic_set(&h.held, 0);
	mutex_lock(&lot_d);
	t = kthread_run(lot_holder_fn, &h, "lot_holder");
	if (IS_ERR(t)) {
		mutex_unlock(&lot_d);
		KUNIT_FAIL(test, "no thread");
		return;
	}
	KUNIT_EXPECT_TRUE(test, kunit_wait_for(lot_atomic_set, &h.held, LOT_WAIT_MS));
	mutex_lock(&lot_c); /* WARNs, then sleeps until the holder lets go */
	mutex_unlock(&lot_c);
	mutex_unlock(&lot_d);
	kthread_stop(t);
	KUNIT_EXPECT_TRUE(test, h.waiter_slept);
	KUNIT_EXPECT_EQ(test, h.warns_when_asleep, warns + 1);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
}

static DEFINE_MUTEX(lot_x);
static DEFINE_MUTEX(lot_y);
static DEFINE_MUTEX(lot_z);

/*
 * X -> Y and Y -> Z recorded, Z then X closes the cycle: one WARN with
 * the whole recorded path, each step with its two sites. X then Z agrees
 * with the path and is quiet, and so is a second Z then X.
 */
static void lockorder_test_cycle3(struct kunit *test)
{
	unsigned long warns = nr_warnings;
	u64 log = printk_log_end();

	lot_nest(&lot_x, &lot_y);
	lot_nest(&lot_y, &lot_z);
	lot_nest(&lot_x, &lot_z);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns);

	lot_nest(&lot_z, &lot_x);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	KUNIT_EXPECT_TRUE(test, lot_log_has_takes(log, "lot_x", "lot_z"));
	KUNIT_EXPECT_TRUE(
		test, printk_log_contains(log, " lot_z taken at lot_nest+"));
	KUNIT_EXPECT_TRUE(
		test, printk_log_contains(log, ", then lot_x at lot_nest+"));
	/* The shortest recorded path, X -> Z, is the one shown. */
	KUNIT_EXPECT_TRUE(
		test, printk_log_contains(
			      log, "the recorded order is lot_x -> lot_z:\n"));

	log = printk_log_end();
	lot_nest(&lot_z, &lot_x);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	KUNIT_EXPECT_FALSE(test, printk_log_contains(log, "lockorder:"));
}

static DEFINE_MUTEX(lot_u);
static DEFINE_MUTEX(lot_v);
static DEFINE_MUTEX(lot_w);

/* Only through the path: U -> V -> W recorded, W then U. */
static void lockorder_test_cycle3_path(struct kunit *test)
{
	unsigned long warns = nr_warnings;
	u64 log = printk_log_end();

	lot_nest(&lot_u, &lot_v);
	lot_nest(&lot_v, &lot_w);
	KUNIT_EXPECT_FALSE(test, lockorder_order_recorded(&lot_u.dep_map,
							  &lot_w.dep_map));
	lot_nest(&lot_w, &lot_u);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	KUNIT_EXPECT_TRUE(test, lot_log_has_takes(log, "lot_u", "lot_w"));
	KUNIT_EXPECT_TRUE(
		test,
		printk_log_contains(
			log,
			"the recorded order is lot_u -> lot_v -> lot_w:\n"));
	KUNIT_EXPECT_TRUE(
		test, printk_log_contains(log, " lot_u taken at lot_nest+"));
	KUNIT_EXPECT_TRUE(
		test, printk_log_contains(log, ", then lot_v at lot_nest+"));
	KUNIT_EXPECT_TRUE(
		test, printk_log_contains(log, " lot_v taken at lot_nest+"));
	KUNIT_EXPECT_TRUE(
		test, printk_log_contains(log, ", then lot_w at lot_nest+"));
	KUNIT_EXPECT_FALSE(test, lockorder_order_recorded(&lot_w.dep_map,
							  &lot_u.dep_map));
	lot_nest(&lot_w, &lot_u);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
}

static DEFINE_MUTEX(lot_p);
static DEFINE_MUTEX(lot_q);
static DEFINE_MUTEX(lot_r);

#define LOT_ROUNDS 200

/* P, Q, R in that order, sometimes without Q, released in any order. */
static int lot_consistent_fn(void *data)
{
	unsigned int i;

	for (i = 0; i < LOT_ROUNDS; i++) {
		mutex_lock(&lot_p);
		if (i & 1)
			mutex_lock(&lot_q);
		mutex_lock(&lot_r);
		if (!(i & 7))
			yield();
		mutex_unlock(i & 2 ? &lot_p : &lot_r);
		mutex_unlock(i & 2 ? &lot_r : &lot_p);
		if (i & 1)
			mutex_unlock(&lot_q);
	}
	atomic_inc(data);
	kthread_wait_stop();
	return 0;
}

struct lot_count {
	atomic_t *v;
	int want;
};

static bool lot_count_reached(void *arg)
{
	struct lot_count *c = arg;

	return atomic_read(c->v) == c->want;
}

/* Two threads on every CPU nest P, Q, R the same way: never a WARN. */
static void lockorder_test_consistent(struct kunit *test)
{
	unsigned int n = 2 * num_online_cpus(), cpu, i = 0;
	unsigned long warns = nr_warnings;
	struct task_struct *t[2 * NR_CPUS];
	atomic_t done = ATOMIC_INIT(0);

	for_each_online_cpu(cpu) {
		t[i++] = kthread_run_on_cpu(lot_consistent_fn, &done, cpu,
					    "lot_order/%u");
		t[i++] = kthread_run_on_cpu(lot_consistent_fn, &done, cpu,
					    "lot_order/%u");
		KUNIT_ASSERT_FALSE(test, IS_ERR(t[i - 2]) || IS_ERR(t[i - 1]));
	}
	KUNIT_EXPECT_TRUE(test, kunit_wait_for(lot_count_reached,
					       &(struct lot_count){ &done, n },
					       LOT_WAIT_MS));
	for (i = 0; i < n; i++)
		kthread_stop(t[i]);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns);
	KUNIT_EXPECT_TRUE(test, lockorder_order_recorded(&lot_p.dep_map,
							 &lot_q.dep_map));
	KUNIT_EXPECT_TRUE(test, lockorder_order_recorded(&lot_q.dep_map,
							 &lot_r.dep_map));
	KUNIT_EXPECT_TRUE(test, lockorder_order_recorded(&lot_p.dep_map,
							 &lot_r.dep_map));
	KUNIT_EXPECT_FALSE(test, lockorder_order_recorded(&lot_r.dep_map,
							  &lot_p.dep_map));
}

static DEFINE_MUTEX(lot_g);
static DEFINE_MUTEX(lot_h);
static DEFINE_MUTEX(lot_i);
static DEFINE_MUTEX(lot_j);

/*
 * The fast path: a lock taken with nothing held, or taken again on top of
 * the same held locks, does not look at the graph, nor does one whose
 * order from each held class was one of its last two checked. A check that
 * could not look at everything (the edge table was full) is not remembered.
 */
static void lockorder_test_fast_path(struct kunit *test)
{
	unsigned long checks = lockorder_nr_checks();
	unsigned int old;
	int i;

	mutex_lock(&lot_g);
	mutex_unlock(&lot_g);
	KUNIT_EXPECT_EQ(test, lockorder_nr_checks(), checks);

	mutex_lock(&lot_g);
	for (i = 0; i < 10; i++) {
		mutex_lock(&lot_h);
		mutex_unlock(&lot_h);
	}
	KUNIT_EXPECT_EQ(test, lockorder_nr_checks(), checks + 1);
	mutex_lock(&lot_h);
	mutex_lock(&lot_i);
	mutex_unlock(&lot_i);
	mutex_lock(&lot_i);
	mutex_unlock(&lot_i);
	mutex_unlock(&lot_h);
	KUNIT_EXPECT_EQ(test, lockorder_nr_checks(), checks + 2);

	old = lockorder_set_max_edges(lockorder_nr_edges());
	mutex_lock(&lot_j); /* g -> j: no room, not recorded */
	mutex_unlock(&lot_j);
	lockorder_set_max_edges(old);
	mutex_lock(&lot_j);
	mutex_unlock(&lot_j);
	mutex_unlock(&lot_g);
	KUNIT_EXPECT_EQ(test, lockorder_nr_checks(), checks + 4);
	KUNIT_EXPECT_TRUE(test, lockorder_order_recorded(&lot_g.dep_map,
							 &lot_j.dep_map));

	/* A new entry for g: its class remembers g -> j, no search. */
	mutex_lock(&lot_g);
	mutex_lock(&lot_j);
	mutex_unlock(&lot_j);
	mutex_unlock(&lot_g);
	KUNIT_EXPECT_EQ(test, lockorder_nr_checks(), checks + 4);
}

static DEFINE_MUTEX(lot_s1);
static DEFINE_MUTEX(lot_s2);
static DEFINE_MUTEX(lot_s3);
static DEFINE_MUTEX(lot_s4);
static struct lockorder_map lot_never = LOCKORDER_MAP_INIT("lot_never");

/*
 * The held stack: a lock released from the middle leaves the others held
 * and orders nothing after it; a lock released from the bottom too.
 * lockorder_assert_held() of a lock no longer held WARNs, and so does a
 * release of a lock the task does not hold.
 */
static void lockorder_test_held_stack(struct kunit *test)
{
	unsigned long warns = nr_warnings;
	char buf[96];
	u64 log;

	KUNIT_EXPECT_EQ(test, lockorder_depth(), 0);
	mutex_lock(&lot_s1);
	mutex_lock(&lot_s2);
	mutex_lock(&lot_s3);
	KUNIT_EXPECT_EQ(test, lockorder_depth(), 3);
	mutex_unlock(&lot_s2);
	KUNIT_EXPECT_EQ(test, lockorder_depth(), 2);
	KUNIT_EXPECT_TRUE(test, lockorder_is_held(&lot_s1.dep_map));
	KUNIT_EXPECT_FALSE(test, lockorder_is_held(&lot_s2.dep_map));
	KUNIT_EXPECT_TRUE(test, lockorder_is_held(&lot_s3.dep_map));
	mutex_lock(&lot_s4);
	KUNIT_EXPECT_TRUE(test, lockorder_order_recorded(&lot_s1.dep_map,
							 &lot_s4.dep_map));
	KUNIT_EXPECT_TRUE(test, lockorder_order_recorded(&lot_s3.dep_map,
							 &lot_s4.dep_map));
	KUNIT_EXPECT_FALSE(test, lockorder_order_recorded(&lot_s2.dep_map,
							  &lot_s4.dep_map));
	mutex_unlock(&lot_s1);
	KUNIT_EXPECT_EQ(test, lockorder_depth(), 2);
	KUNIT_EXPECT_FALSE(test, lockorder_is_held(&lot_s1.dep_map));
	KUNIT_EXPECT_TRUE(test, lockorder_is_held(&lot_s3.dep_map));
	KUNIT_EXPECT_TRUE(test, lockorder_is_held(&lot_s4.dep_map));
	lockorder_assert_held(&lot_s3.dep_map);
	mutex_unlock(&lot_s4);
	mutex_unlock(&lot_s3);
	KUNIT_EXPECT_EQ(test, lockorder_depth(), 0);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns);

	log = printk_log_end();
	lockorder_assert_held(&lot_s3.dep_map);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	snprintf(buf, sizeof(buf), "lockorder: lot_s3 not held by %s/%d",
		 current->comm, current->pid);
	KUNIT_EXPECT_TRUE(test, printk_log_contains(log, buf));

	log = printk_log_end();
	lockorder_release(&lot_never, _THIS_IP_);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 2);
	KUNIT_EXPECT_TRUE(
		test,
		printk_log_contains(
			log,
			" releases lot_never at lockorder_test_held_stack+"));
	KUNIT_EXPECT_EQ(test, lockorder_depth(), 0);
}

static DEFINE_MUTEX(lot_c1);
static DEFINE_MUTEX(lot_c2);
static DEFINE_MUTEX(lot_c3);

/*
 * The chains after an out-of-order release: c3 found in order on top of
 * what is left of c1, c2 (c2 alone, a trylock, so c1 -> c2 is no order)
 * says nothing of c3 on top of both, where c1 -> c3 inverts the recorded
 * c3 -> c1. Without a fresh chain for c2, the second stack would reuse
 * the first one's verdict and be quiet.
 */
static void lockorder_test_chain_after_release(struct kunit *test)
{
	unsigned long warns = nr_warnings;
	u64 log = printk_log_end();

	lot_nest(&lot_c3, &lot_c1); /* c3 -> c1 */

	mutex_lock(&lot_c1);
	KUNIT_ASSERT_TRUE(test, mutex_trylock(&lot_c2));
	mutex_unlock(&lot_c1); /* out of order: c2 is left */
	mutex_lock(&lot_c3); /* c2 -> c3: in order */
	mutex_unlock(&lot_c3);
	mutex_unlock(&lot_c2);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns);

	mutex_lock(&lot_c1);
	KUNIT_ASSERT_TRUE(test, mutex_trylock(&lot_c2));
	mutex_lock(&lot_c3); /* c1 -> c3 against c3 -> c1 */
	mutex_unlock(&lot_c3);
	mutex_unlock(&lot_c2);
	mutex_unlock(&lot_c1);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	KUNIT_EXPECT_TRUE(test, lot_log_has_takes(log, "lot_c3", "lot_c1"));
}

static DEFINE_MUTEX(lot_t1);
static DEFINE_MUTEX(lot_t2);
static DEFINE_MUTEX(lot_t3);

/*
 * A trylock cannot wait: no order is recorded to it, and one against the
 * recorded order is quiet. It is held all the same: what is taken under
 * it is ordered after it.
 */
static void lockorder_test_trylock(struct kunit *test)
{
	unsigned long warns = nr_warnings;

	mutex_lock(&lot_t1);
	KUNIT_ASSERT_EQ(test, mutex_trylock(&lot_t2), 1);
	KUNIT_EXPECT_TRUE(test, lockorder_is_held(&lot_t2.dep_map));
	mutex_lock(&lot_t3);
	mutex_unlock(&lot_t3);
	mutex_unlock(&lot_t2);
	mutex_unlock(&lot_t1);
	KUNIT_EXPECT_FALSE(test, lockorder_order_recorded(&lot_t1.dep_map,
							  &lot_t2.dep_map));
	KUNIT_EXPECT_TRUE(test, lockorder_order_recorded(&lot_t1.dep_map,
							 &lot_t3.dep_map));
	KUNIT_EXPECT_TRUE(test, lockorder_order_recorded(&lot_t2.dep_map,
							 &lot_t3.dep_map));

	mutex_lock(&lot_t3);
	KUNIT_EXPECT_EQ(test, mutex_trylock(&lot_t1), 1);
	mutex_unlock(&lot_t1);
	mutex_unlock(&lot_t3);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns);
	KUNIT_EXPECT_EQ(test, lockorder_depth(), 0);
}

static struct mutex lot_many[LOCKORDER_MAX_HELD + 1];
static DEFINE_MUTEX(lot_ov_a);
static DEFINE_MUTEX(lot_ov_b);

/*
 * One lock more than the held array: one WARN, then the task is no
 * longer tracked (the releases of locks it could not record are quiet,
 * and so is an inversion). The locks work all along.
 */
static void lockorder_test_overflow(struct kunit *test)
{
	unsigned long warns = nr_warnings;
	u64 log = printk_log_end();
	char buf[96];
	int i;

	for (i = 0; i <= LOCKORDER_MAX_HELD; i++)
		mutex_init(&lot_many[i]); /* one class: nesting is not checked
					   */
	for (i = 0; i <= LOCKORDER_MAX_HELD; i++)
		mutex_lock(&lot_many[i]);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	snprintf(buf, sizeof(buf), "%s/%d holds more than %d locks",
		 current->comm, current->pid, LOCKORDER_MAX_HELD);
	KUNIT_EXPECT_TRUE(test, printk_log_contains(log, buf));
	KUNIT_EXPECT_EQ(test, lockorder_depth(), 0);
	for (i = LOCKORDER_MAX_HELD; i >= 0; i--) {
		KUNIT_EXPECT_TRUE(test, mutex_is_owner(&lot_many[i]));
		mutex_unlock(&lot_many[i]);
	}
	lot_nest(&lot_ov_a, &lot_ov_b);
	lot_nest(&lot_ov_b, &lot_ov_a);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	KUNIT_EXPECT_FALSE(test, lockorder_order_recorded(&lot_ov_a.dep_map,
							  &lot_ov_b.dep_map));
}

static DEFINE_MUTEX(lot_e);
static DEFINE_MUTEX(lot_f);
static DEFINE_MUTEX(lot_fresh);

/*
 * Full tables: a new order is neither recorded nor checked, and the
 * message says so once; a new class is not tracked. Both go on once
 * there is room again.
 */
static void lockorder_test_tables_full(struct kunit *test)
{
	unsigned long warns = nr_warnings;
	unsigned int old, edges;
	u64 log;

	edges = lockorder_nr_edges();
	old = lockorder_set_max_edges(edges);
	log = printk_log_end();
	lot_nest(&lot_e, &lot_f);
	KUNIT_EXPECT_TRUE(
		test, printk_log_contains(log, "lockorder: edge table full ("));
	KUNIT_EXPECT_TRUE(
		test,
		printk_log_contains(
			log,
			"lot_e -> lot_f and later new orders are not recorded nor checked"));
	KUNIT_EXPECT_FALSE(test, lockorder_order_recorded(&lot_e.dep_map,
							  &lot_f.dep_map));
	KUNIT_EXPECT_EQ(test, lockorder_nr_edges(), edges);
	log = printk_log_end();
	lot_nest(&lot_f, &lot_e); /* not checked: no WARN, no new message */
	lot_nest(&lot_e, &lot_f);
	KUNIT_EXPECT_FALSE(test, printk_log_contains(log, "lockorder:"));
	KUNIT_EXPECT_EQ(test, nr_warnings, warns);

	lockorder_set_max_edges(old);
	lot_nest(&lot_f, &lot_e);
	KUNIT_EXPECT_TRUE(test, lockorder_order_recorded(&lot_f.dep_map,
							 &lot_e.dep_map));
	lot_nest(&lot_e, &lot_f); /* checked again */
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);

	old = lockorder_set_max_classes(lockorder_nr_classes());
	log = printk_log_end();
	mutex_lock(&lot_fresh);
	KUNIT_EXPECT_TRUE(test, printk_log_contains(
					log, "lockorder: class table full ("));
	KUNIT_EXPECT_TRUE(
		test,
		printk_log_contains(
			log,
			"lot_fresh and later new classes are not checked"));
	KUNIT_EXPECT_EQ(test, lockorder_depth(), 0);
	mutex_unlock(&lot_fresh);
	lockorder_set_max_classes(old);
	/* lot_fresh stays untracked: its class was never registered. */
	lot_nest(&lot_e, &lot_fresh);
	lot_nest(&lot_fresh, &lot_e);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	KUNIT_EXPECT_FALSE(test, lockorder_order_recorded(&lot_e.dep_map,
							  &lot_fresh.dep_map));
}

static struct lockorder_map lot_exit_map = LOCKORDER_MAP_INIT("lot_exit_map");

static noinline int lot_exit_fn(void *data)
{
	lockorder_acquire(&lot_exit_map, _THIS_IP_);
	atomic_set(data, 1);
	kthread_wait_stop();
	return 0; /* exits holding it */
}

/*
 * A thread that exits holding a lock WARNs, naming the lock, where it
 * was taken and the task; a second one holding the same class does not.
 */
static void lockorder_test_exit_holding(struct kunit *test)
{
	unsigned long warns = nr_warnings;
	u64 log = printk_log_end();
	atomic_t held = ATOMIC_INIT(0);
	struct task_struct *t;
	char buf[64];
	int pid;

	t = kthread_run(lot_exit_fn, &held, "lot_exit");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	pid = t->pid;
	KUNIT_EXPECT_TRUE(test, kunit_wait_for(lot_atomic_set, &held, LOT_WAIT_MS));
	kthread_stop(t); /* returns once the thread is switched out */
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	snprintf(buf, sizeof(buf), "lot_exit/%d exits holding 1 lock:", pid);
	KUNIT_EXPECT_TRUE(test, printk_log_contains(log, buf));
	KUNIT_EXPECT_TRUE(test,
			  printk_log_contains(
				  log, " lot_exit_map taken at lot_exit_fn+"));

	atomic_set(&held, 0);
	t = kthread_run(lot_exit_fn, &held, "lot_exit");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	KUNIT_EXPECT_TRUE(test, kunit_wait_for(lot_atomic_set, &held, LOT_WAIT_MS));
	kthread_stop(t);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
}

static struct lockorder_map lot_rw = LOCKORDER_MAP_INIT("lot_rw");
static struct lockorder_map lot_rw2 = LOCKORDER_MAP_INIT("lot_rw2");
static DEFINE_MUTEX(lot_rw_m);

/*
 * A reader/writer lock through the API, as cpus_read_lock() would: a
 * read inside a read of the same lock WARNs once per class; reads and
 * writes share a class, so a write against an order recorded by a read
 * WARNs.
 */
static void lockorder_test_read_write(struct kunit *test)
{
	unsigned long warns = nr_warnings;
	u64 log = printk_log_end();
	char buf[96];

	lockorder_acquire_read(&lot_rw, _THIS_IP_);
	lockorder_acquire_read(&lot_rw, _THIS_IP_);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	snprintf(
		buf, sizeof(buf),
		"recursive acquisition: %s/%d takes lot_rw (read) at lockorder_test_read_write+",
		current->comm, current->pid);
	KUNIT_EXPECT_TRUE(test, printk_log_contains(log, buf));
	KUNIT_EXPECT_TRUE(
		test,
		printk_log_contains(
			log,
			"which it holds (read) since lockorder_test_read_write+"));
	lockorder_acquire(&lot_rw, _THIS_IP_);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	KUNIT_EXPECT_EQ(test, lockorder_depth(), 3);
	lockorder_release(&lot_rw, _THIS_IP_);
	lockorder_release(&lot_rw, _THIS_IP_);
	lockorder_release(&lot_rw, _THIS_IP_);
	KUNIT_EXPECT_EQ(test, lockorder_depth(), 0);

	lockorder_acquire_read(&lot_rw2, _THIS_IP_);
	mutex_lock(&lot_rw_m);
	mutex_unlock(&lot_rw_m);
	lockorder_release(&lot_rw2, _THIS_IP_);
	KUNIT_EXPECT_TRUE(test, lockorder_order_recorded(&lot_rw2,
							 &lot_rw_m.dep_map));
	log = printk_log_end();
	mutex_lock(&lot_rw_m);
	lockorder_acquire(&lot_rw2, _THIS_IP_);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 2);
	KUNIT_EXPECT_TRUE(test, lot_log_has_takes(log, "lot_rw2", "lot_rw_m"));
	KUNIT_EXPECT_TRUE(
		test,
		printk_log_contains(
			log, "the recorded order is lot_rw2 -> lot_rw_m:\n"));
	lockorder_assert_held(&lot_rw2);
	lockorder_release(&lot_rw2, _THIS_IP_);
	mutex_unlock(&lot_rw_m);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 2);
	KUNIT_EXPECT_EQ(test, lockorder_depth(), 0);
}

static noinline void lot_init_site1(struct mutex *site1)
{
	mutex_init(site1);
}

static noinline void lot_init_site2(struct mutex *site2)
{
	mutex_init(site2);
}

/*
 * mutex_init() gives one class per call site: two mutexes of one site
 * nest without a check, and an order recorded with one of them holds for
 * the other. A lock without a key outside static data is not tracked.
 */
static void lockorder_test_init_classes(struct kunit *test)
{
	struct mutex *m = kunit_kzalloc(test, 3 * sizeof(*m), GFP_KERNEL);
	struct mutex onstack = __MUTEX_INITIALIZER(onstack);
	unsigned long warns = nr_warnings;
	u64 log = printk_log_end();

	KUNIT_ASSERT_NOT_NULL(test, m);
	lot_init_site1(&m[0]);
	lot_init_site1(&m[1]);
	lot_init_site2(&m[2]);
	lot_nest(&m[0], &m[1]);
	lot_nest(&m[1], &m[0]);
	lot_nest(&m[0], &m[2]);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns);
	KUNIT_EXPECT_TRUE(test, lockorder_order_recorded(&m[1].dep_map,
							 &m[2].dep_map));
	lot_nest(&m[2], &m[1]);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	KUNIT_EXPECT_TRUE(test, lot_log_has_takes(log, "site1", "site2"));

	log = printk_log_end();
	mutex_lock(&onstack);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 2);
	KUNIT_EXPECT_TRUE(
		test,
		printk_log_contains(
			log, "lockorder: lock onstack: its map (no key) at "));
	KUNIT_EXPECT_EQ(test, lockorder_depth(), 0);
	mutex_unlock(&onstack);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 2);
}

static struct lockorder_map lot_irq_map = LOCKORDER_MAP_INIT("lot_irq_map");
static atomic_t lot_irq_done;

/* Takes and never releases: harmless only if interrupts are not tracked. */
static void lot_irq_fn(struct timer_list *timer)
{
	lockorder_acquire(&lot_irq_map, _THIS_IP_);
	atomic_set(&lot_irq_done, in_interrupt() ? 1 : 2);
}

/*
 * In interrupt context nothing is tracked: a timer callback that takes a
 * lock on this CPU while the case spins leaves the case's stack alone.
 */
static void lockorder_test_irq_ignored(struct kunit *test)
{
	u64 end = ktime_get_ns() + (u64)LOT_WAIT_MS * 1000000;
	struct timer_list timer;

	atomic_set(&lot_irq_done, 0);
	timer_setup(&timer, lot_irq_fn, 0);
	mod_timer(&timer, jiffies + 1);
	while (!atomic_read(&lot_irq_done) && ktime_get_ns() < end)
		cpu_relax(); /* no yield: this task is the one interrupted */
	del_timer_sync(&timer);
	KUNIT_EXPECT_EQ(test, atomic_read(&lot_irq_done), 1);
	KUNIT_EXPECT_EQ(test, lockorder_depth(), 0);
}

static DEFINE_STATIC_KEY_FALSE(lot_key);

static noinline int lot_key_site(void)
{
	return static_branch_unlikely(&lot_key) ? 1 : 0;
}

static noinline void lot_text_then_jump_label(void)
{
	mutex_lock(&text_mutex);
	jump_label_lock();
	jump_label_unlock();
	mutex_unlock(&text_mutex);
}

/*
 * The kernel's own locks: a key flip takes jump_label_mutex, then
 * text_mutex. Taking them the other way WARNs, naming both; the flips
 * after it go on quietly. Nothing else takes jump_label_mutex while the
 * case runs (deferred keys are flushed by their suite), so the inversion
 * itself cannot deadlock here.
 */
static noinline void lot_jump_label_then_cpus(void)
{
	jump_label_lock();
	cpus_read_lock();
	cpus_read_unlock();
	jump_label_unlock();
}

/*
 * The hotplug lock: a flip takes cpus_read_lock(), then jump_label_mutex.
 * Taking them the other way round WARNs, naming both.
 */
static void lockorder_test_cpus_jump_label(struct kunit *test)
{
	unsigned long warns = nr_warnings;
	u64 log = printk_log_end();

	if (!IS_ENABLED(CONFIG_JUMP_LABEL))
		kunit_skip(test, "no patching: a flip takes no jump_label_mutex");
	static_branch_enable(&lot_key); /* records the flip's order */
	static_branch_disable(&lot_key);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns);
	lot_jump_label_then_cpus();
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	KUNIT_EXPECT_TRUE(test, lot_log_has_takes(log, "cpu_hotplug_lock (read)",
						  "jump_label_mutex"));
	KUNIT_EXPECT_TRUE(test, printk_log_contains(
			  log, " cpu_hotplug_lock at lot_jump_label_then_cpus+"));
	lot_jump_label_then_cpus();
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
}

static void lockorder_test_text_jump_label(struct kunit *test)
{
	unsigned long warns = nr_warnings;
	u64 log = printk_log_end();

	if (!IS_ENABLED(CONFIG_JUMP_LABEL))
		kunit_skip(test, "no patching: a flip takes no text_mutex");
	static_branch_enable(&lot_key);
	KUNIT_EXPECT_EQ(test, lot_key_site(), 1);
	static_branch_disable(&lot_key);
	KUNIT_EXPECT_EQ(test, lot_key_site(), 0);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns);

	lot_text_then_jump_label();
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
	KUNIT_EXPECT_TRUE(test, lot_log_has_takes(log, "jump_label_mutex",
						  "text_mutex"));
	KUNIT_EXPECT_TRUE(
		test,
		printk_log_contains(
			log, " text_mutex taken at lot_text_then_jump_label+"));
	/* jump_label_lock() ends in a tail call: its caller is the site. */
	KUNIT_EXPECT_TRUE(
		test,
		printk_log_contains(
			log,
			", then jump_label_mutex at lot_text_then_jump_label+"));
	KUNIT_EXPECT_TRUE(
		test,
		printk_log_contains(
			log,
			"the recorded order is jump_label_mutex -> text_mutex:\n"));
	KUNIT_EXPECT_TRUE(
		test, printk_log_contains(
			      log, " jump_label_mutex taken at jump_label_"));
	KUNIT_EXPECT_TRUE(
		test,
		printk_log_contains(
			log,
			", then text_mutex at jump_label_"));

	lot_text_then_jump_label();
	static_branch_enable(&lot_key);
	static_branch_disable(&lot_key);
	KUNIT_EXPECT_EQ(test, nr_warnings, warns + 1);
}

static struct kunit_case lockorder_test_cases[] = {
	KUNIT_CASE(lockorder_test_ab_ba),
	KUNIT_CASE(lockorder_test_warns_before_blocking),
	KUNIT_CASE(lockorder_test_cycle3),
	KUNIT_CASE(lockorder_test_cycle3_path),
	KUNIT_CASE(lockorder_test_consistent),
	KUNIT_CASE(lockorder_test_fast_path),
	KUNIT_CASE(lockorder_test_held_stack),
	KUNIT_CASE(lockorder_test_chain_after_release),
	KUNIT_CASE(lockorder_test_trylock),
	KUNIT_CASE(lockorder_test_overflow),
	KUNIT_CASE(lockorder_test_tables_full),
	KUNIT_CASE(lockorder_test_exit_holding),
	KUNIT_CASE(lockorder_test_read_write),
	KUNIT_CASE(lockorder_test_init_classes),
	KUNIT_CASE(lockorder_test_irq_ignored),
	KUNIT_CASE(lockorder_test_text_jump_label),
	KUNIT_CASE(lockorder_test_cpus_jump_label),
	{}
};

static struct kunit_suite lockorder_test_suite = {
	.name = "lockorder",
	.test_cases = lockorder_test_cases,
};
kunit_test_suite(lockorder_test_suite);
