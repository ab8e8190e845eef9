// SPDX-License-Identifier: GPL-2.0
/*
 * Futexes, as Linux's futex(2): a thread sleeps on a u32 of user memory
 * while it holds an expected value (FUTEX_WAIT, FUTEX_WAIT_BITSET), others
 * wake it (FUTEX_WAKE, FUTEX_WAKE_BITSET, FUTEX_WAKE_OP) or move it to
 * another word (FUTEX_REQUEUE, FUTEX_CMP_REQUEUE). What glibc's mutexes,
 * condition variables, barriers, semaphores and pthread_join() use.
 *
 * A waiter is a struct futex_q on its own stack, in one of FUTEX_BUCKETS
 * hash buckets by its key: the address space and the address, and whether
 * the futex is shared (without FUTEX_PRIVATE_FLAG): as in Linux, a private
 * and a shared futex of one word are two futexes. All memory here is
 * private anonymous memory, so a shared key is (mm, address) too, but
 * needs the page to be mapped (-EFAULT otherwise, as Linux's
 * get_user_pages()).
 *
 * A waker takes the waiter off its bucket, then sets q->woken, then wakes
 * the task (holding a reference: q may be gone once woken is set). A
 * waiter that stops waiting for another reason (a timeout, a signal, its
 * thread leaving) takes itself off the bucket it is on, which a requeue
 * may have changed (q->bucket, under the bucket lock); so a thread killed
 * while waiting leaves nothing queued.
 */
#include <linux/kernel.h>
#include <linux/init.h>
#include <linux/jiffies.h>
#include <linux/process.h>
#include <linux/sched.h>
#include <linux/signal.h>
#include <linux/spinlock.h>
#include <linux/syscalls.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <asm/futex.h>
#include <asm/user_pgtable.h>

#define FUTEX_WAIT 0
#define FUTEX_WAKE 1
#define FUTEX_REQUEUE 3
#define FUTEX_CMP_REQUEUE 4
#define FUTEX_WAKE_OP 5
#define FUTEX_LOCK_PI 6
#define FUTEX_WAIT_BITSET 9
#define FUTEX_WAKE_BITSET 10
#define FUTEX_WAIT_REQUEUE_PI 11
#define FUTEX_LOCK_PI2 13
#define FUTEX_PRIVATE_FLAG 128
#define FUTEX_CLOCK_REALTIME 256
#define FUTEX_CMD_MASK (~(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME))
#define FUTEX_BITSET_MATCH_ANY 0xffffffffU

#define FUTEX_BUCKETS 64

struct futex_key {
	struct mm_struct *mm;
	unsigned long addr;
	bool shared;
};

struct futex_bucket {
	spinlock_t lock;
	struct list_head chain; /* of struct futex_q, by node */
};

struct futex_q {
	struct list_head node;
	struct task_struct *task;
	struct futex_key key;
	struct futex_bucket *bucket; /* the one it is on (under its lock) */
	u32 bitset;
	int woken; /* set by the waker once q is off its bucket */
};

static struct futex_bucket buckets[FUTEX_BUCKETS];

static int __init futex_init(void)
{
	unsigned int i;

	for (i = 0; i < FUTEX_BUCKETS; i++) {
		spin_lock_init(&buckets[i].lock);
		INIT_LIST_HEAD(&buckets[i].chain);
	}
	return 0;
}
early_initcall(futex_init);

static struct futex_bucket *bucket_of(const struct futex_key *k)
{
	u64 h = ((unsigned long)k->mm >> 6) ^ (k->addr >> 2) ^ k->shared;

	return &buckets[(h * 0x9e3779b97f4a7c15ULL) >> 58];
}

static bool key_match(const struct futex_key *a, const struct futex_key *b)
{
	return a->mm == b->mm && a->addr == b->addr && a->shared == b->shared;
}

/*
 * The key of the futex at uaddr of the current process: -EINVAL if it is
 * not 4-byte aligned, -EFAULT if it is not a user address (or, shared,
 * not mapped), as Linux's get_futex_key().
 */
static int futex_key_get(unsigned long uaddr, bool shared, struct futex_key *k)
{
	struct mm_struct *mm = current_process()->mm;

	if (uaddr & 3)
		return -EINVAL;
	if (!access_ok(uaddr, sizeof(u32)))
		return -EFAULT;
	if (shared && !user_lookup(mm->pgd, uaddr & PAGE_MASK, NULL))
		return -EFAULT;
	*k = (struct futex_key){ mm, uaddr, shared };
	return 0;
}

/* Wakes q's task: q is off its bucket (whose lock is held) from now on. */
static void futex_wake_one(struct futex_q *q)
{
	struct task_struct *t = q->task;

	get_task_struct(t);
	list_del_init(&q->node);
	__atomic_store_n(&q->woken, 1, __ATOMIC_RELEASE);
	wake_up_process(t);
	put_task_struct(t);
}

/* Both buckets locked, in address order, once if they are one. */
static void buckets_lock(struct futex_bucket *a, struct futex_bucket *b,
			 unsigned long *flags)
{
	struct futex_bucket *lo = a < b ? a : b, *hi = a < b ? b : a;

	spin_lock_irqsave(&lo->lock, *flags);
	if (lo != hi)
		spin_lock(&hi->lock);
}

static void buckets_unlock(struct futex_bucket *a, struct futex_bucket *b,
			   unsigned long flags)
{
	struct futex_bucket *lo = a < b ? a : b, *hi = a < b ? b : a;

	if (lo != hi)
		spin_unlock(&hi->lock);
	spin_unlock_irqrestore(&lo->lock, flags);
}

/* Wakes up to nr (at least one, as Linux) waiters of k in bitset. */
static int __futex_wake(struct futex_bucket *b, const struct futex_key *k,
			int nr, u32 bitset)
{
	struct futex_q *q, *n;
	int woken = 0;

	list_for_each_entry_safe(q, n, &b->chain, node) {
		if (!key_match(&q->key, k) || !(q->bitset & bitset))
			continue;
		futex_wake_one(q);
		if (++woken >= nr)
			break;
	}
	return woken;
}

int futex_wake(struct mm_struct *mm, unsigned long uaddr, bool shared, int nr,
	       u32 bitset)
{
	struct futex_key k = { mm, uaddr, shared };
	struct futex_bucket *b = bucket_of(&k);
	unsigned long flags;
	int woken;

	spin_lock_irqsave(&b->lock, flags);
	woken = __futex_wake(b, &k, nr, bitset);
	spin_unlock_irqrestore(&b->lock, flags);
	return woken;
}

static long futex_wake_call(unsigned long uaddr, bool shared, int nr,
			    u32 bitset)
{
	struct futex_key k;
	int ret;

	if (!bitset)
		return -EINVAL;
	ret = futex_key_get(uaddr, shared, &k);
	if (ret)
		return ret;
	return futex_wake(k.mm, uaddr, shared, nr, bitset);
}

/* Takes q off whichever bucket it is on: false if a waker took it. */
static bool futex_unqueue(struct futex_q *q)
{
	struct futex_bucket *b;
	unsigned long flags;
	bool queued;

	for (;;) {
		b = READ_ONCE(q->bucket);
		spin_lock_irqsave(&b->lock, flags);
		if (q->bucket == b)
			break;
		spin_unlock_irqrestore(&b->lock, flags);
	}
	queued = !list_empty(&q->node);
	if (queued)
		list_del_init(&q->node);
	spin_unlock_irqrestore(&b->lock, flags);
	return queued;
}

/*
 * Sleeps until woken, the deadline (ktime_get_ns(), 0: none) or a signal.
 * 0 if woken; -ETIMEDOUT; a signal: -ERESTARTSYS (untimed) or -EINTR
 * (timed: Linux's restart block ends in -EINTR once a handler ran, and a
 * signal that wakes the wait runs one, or ends the thread).
 */
static long futex_sleep(struct futex_q *q, u64 deadline)
{
	long ret = 0;
	u64 now;

	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (__atomic_load_n(&q->woken, __ATOMIC_ACQUIRE))
			break;
		if (process_signal_pending()) {
			ret = deadline ? -EINTR : -ERESTARTSYS;
			break;
		}
		if (!deadline) {
			schedule();
			continue;
		}
		now = ktime_get_ns();
		if (now >= deadline) {
			ret = -ETIMEDOUT;
			break;
		}
		schedule_timeout(DIV_ROUND_UP(deadline - now, TICK_NSEC));
	}
	__set_current_state(TASK_RUNNING);
	if (ret && !futex_unqueue(q))
		ret = 0; /* woken meanwhile: the wake counted it */
	return ret;
}

/* FUTEX_WAIT(_BITSET): -EAGAIN at once if *uaddr is not val. */
static long futex_wait(unsigned long uaddr, bool shared, u32 val, u64 deadline,
		       u32 bitset)
{
	struct futex_q q = { .task = current, .bitset = bitset };
	unsigned long flags;
	u32 cur;
	int ret;

	if (!bitset)
		return -EINVAL;
	ret = futex_key_get(uaddr, shared, &q.key);
	if (ret)
		return ret;
	q.bucket = bucket_of(&q.key);
	spin_lock_irqsave(&q.bucket->lock, flags);
	if (copy_from_user(&cur, (const void __user *)uaddr, sizeof(cur))) {
		spin_unlock_irqrestore(&q.bucket->lock, flags);
		return -EFAULT;
	}
	if (cur != val) {
		spin_unlock_irqrestore(&q.bucket->lock, flags);
		return -EAGAIN;
	}
	list_add_tail(&q.node, &q.bucket->chain);
	spin_unlock_irqrestore(&q.bucket->lock, flags);
	return futex_sleep(&q, deadline);
}

/*
 * FUTEX_(CMP_)REQUEUE: wakes nr_wake waiters of uaddr, moves up to
 * nr_requeue more to uaddr2: how many it woke and moved. CMP_REQUEUE
 * first checks *uaddr == *cmpval (-EAGAIN).
 */
static long futex_requeue(unsigned long uaddr, unsigned long uaddr2,
			  bool shared, int nr_wake, int nr_requeue,
			  const u32 *cmpval)
{
	struct futex_key k1, k2;
	struct futex_bucket *b1, *b2;
	struct futex_q *q, *n;
	unsigned long flags;
	int count = 0, ret;
	u32 cur;

	if (nr_wake < 0 || nr_requeue < 0)
		return -EINVAL;
	ret = futex_key_get(uaddr, shared, &k1);
	if (!ret)
		ret = futex_key_get(uaddr2, shared, &k2);
	if (ret)
		return ret;
	b1 = bucket_of(&k1);
	b2 = bucket_of(&k2);
	buckets_lock(b1, b2, &flags);
	if (cmpval) {
		ret = copy_from_user(&cur, (const void __user *)uaddr,
				     sizeof(cur)) ?
			      -EFAULT :
		      cur != *cmpval ? -EAGAIN :
				       0;
		if (ret)
			goto out;
	}
	list_for_each_entry_safe(q, n, &b1->chain, node) {
		if (count - nr_wake >= nr_requeue)
			break;
		if (!key_match(&q->key, &k1))
			continue;
		if (++count <= nr_wake) {
			futex_wake_one(q);
			continue;
		}
		list_del_init(&q->node);
		q->key = k2;
		list_add_tail(&q->node, &b2->chain);
		WRITE_ONCE(q->bucket, b2);
	}
	ret = count;
out:
	buckets_unlock(b1, b2, flags);
	return ret;
}

#define FUTEX_OP_SET 0
#define FUTEX_OP_ADD 1
#define FUTEX_OP_OR 2
#define FUTEX_OP_ANDN 3
#define FUTEX_OP_XOR 4
#define FUTEX_OP_OPARG_SHIFT 8

static int sign_extend12(u32 v)
{
	return (int)(v << 20) >> 20;
}

/*
 * FUTEX_WAKE_OP's operation on *uaddr, atomically: 1 if the old value
 * meets the comparison, 0 if not, -ENOSYS for an unknown operation or
 * comparison, -EFAULT.
 */
static int futex_atomic_op(unsigned long uaddr, u32 encoded)
{
	unsigned int op = (encoded >> 28) & 7, cmp = (encoded >> 24) & 15;
	int oparg = sign_extend12(encoded >> 12),
	    cmparg = sign_extend12(encoded);
	u32 old, new, cur;

	if (encoded & (FUTEX_OP_OPARG_SHIFT << 28))
		oparg = 1 << (oparg & 31);
	if (op > FUTEX_OP_XOR)
		return -ENOSYS;
	if (!access_ok(uaddr, sizeof(u32)) ||
	    copy_from_user(&old, (const void __user *)uaddr, sizeof(old)))
		return -EFAULT;
	for (;;) {
		new = op == FUTEX_OP_SET  ? (u32)oparg :
		      op == FUTEX_OP_ADD  ? old + oparg :
		      op == FUTEX_OP_OR	  ? old | oparg :
		      op == FUTEX_OP_ANDN ? old & ~oparg :
					    old ^ oparg;
		if (arch_futex_cmpxchg_user((u32 __user *)uaddr, old, new,
					    &cur))
			return -EFAULT;
		if (cur == old)
			break;
		old = cur;
	}
	switch (cmp) {
	case 0:
		return (int)old == cmparg;
	case 1:
		return (int)old != cmparg;
	case 2:
		return (int)old < cmparg;
	case 3:
		return (int)old >= cmparg;
	case 4:
		return (int)old <= cmparg;
	case 5:
		return (int)old > cmparg;
	}
	return -ENOSYS;
}

/*
 * FUTEX_WAKE_OP: the operation on *uaddr2, then up to nr_wake waiters of
 * uaddr woken, and up to nr_wake2 of uaddr2 if the comparison held.
 */
static long futex_wake_op(unsigned long uaddr, unsigned long uaddr2,
			  bool shared, int nr_wake, int nr_wake2, u32 op)
{
	struct futex_key k1, k2;
	struct futex_bucket *b1, *b2;
	unsigned long flags;
	int ret, cond;

	ret = futex_key_get(uaddr, shared, &k1);
	if (!ret)
		ret = futex_key_get(uaddr2, shared, &k2);
	if (ret)
		return ret;
	b1 = bucket_of(&k1);
	b2 = bucket_of(&k2);
	buckets_lock(b1, b2, &flags);
	cond = futex_atomic_op(uaddr2, op);
	if (cond < 0) {
		buckets_unlock(b1, b2, flags);
		return cond;
	}
	ret = __futex_wake(b1, &k1, nr_wake, FUTEX_BITSET_MATCH_ANY);
	if (cond)
		ret += __futex_wake(b2, &k2, nr_wake2, FUTEX_BITSET_MATCH_ANY);
	buckets_unlock(b1, b2, flags);
	return ret;
}

struct kernel_timespec64 {
	s64 sec;
	long nsec;
};

/*
 * The deadline of a wait, in ktime_get_ns(): FUTEX_WAIT's timeout is
 * relative, FUTEX_WAIT_BITSET's absolute, on CLOCK_MONOTONIC or, with
 * FUTEX_CLOCK_REALTIME, CLOCK_REALTIME. -EINVAL for a bad timespec. A
 * deadline already past is 1 (the wait times out once the value matched).
 */
static int futex_deadline(unsigned long utime, int cmd, bool realtime,
			  u64 *deadline)
{
	struct kernel_timespec64 ts;
	u64 ns, now = ktime_get_ns();

	if (copy_from_user(&ts, (const void __user *)utime, sizeof(ts)))
		return -EFAULT;
	if (ts.sec < 0 || ts.nsec < 0 || ts.nsec >= 1000000000L)
		return -EINVAL;
	ns = ts.sec * 1000000000ULL + ts.nsec;
	if (cmd == FUTEX_WAIT) {
		*deadline = now + ns;
	} else {
		if (realtime) { /* the monotonic clock's time of ns */
			u64 real = realtime_ns();

			ns = ns > real - now ? ns - (real - now) : 0;
		}
		*deadline = ns ? ns : 1;
	}
	if (*deadline < ns) /* overflow: no deadline in our lifetime */
		*deadline = ~0ULL;
	return 0;
}

/*
 * futex(uaddr, op, val, utime, uaddr2, val3), Linux's checks in Linux's
 * order: the timeout of the waits, FUTEX_CLOCK_REALTIME on another op
 * (-ENOSYS), then the op's (an unknown or PI op: -ENOSYS). For requeue
 * and FUTEX_WAKE_OP utime is a count, val2.
 */
long sys_futex(unsigned long uaddr, unsigned long op, unsigned long val,
	       unsigned long utime, unsigned long uaddr2, unsigned long val3)
{
	int cmd = (int)op & FUTEX_CMD_MASK, ret;
	bool shared = !(op & FUTEX_PRIVATE_FLAG);
	bool realtime = op & FUTEX_CLOCK_REALTIME;
	u32 cmpval = val3;
	u64 deadline = 0;

	if (utime && (cmd == FUTEX_WAIT || cmd == FUTEX_WAIT_BITSET ||
		      cmd == FUTEX_LOCK_PI || cmd == FUTEX_LOCK_PI2 ||
		      cmd == FUTEX_WAIT_REQUEUE_PI)) {
		ret = futex_deadline(utime, cmd, realtime, &deadline);
		if (ret)
			return ret;
	}
	if (realtime && cmd != FUTEX_WAIT && cmd != FUTEX_WAIT_BITSET &&
	    cmd != FUTEX_WAIT_REQUEUE_PI && cmd != FUTEX_LOCK_PI2)
		return -ENOSYS;
	switch (cmd) {
	case FUTEX_WAIT:
		return futex_wait(uaddr, shared, val, deadline,
				  FUTEX_BITSET_MATCH_ANY);
	case FUTEX_WAIT_BITSET:
		return futex_wait(uaddr, shared, val, deadline, val3);
	case FUTEX_WAKE:
		return futex_wake_call(uaddr, shared, (int)val,
				       FUTEX_BITSET_MATCH_ANY);
	case FUTEX_WAKE_BITSET:
		return futex_wake_call(uaddr, shared, (int)val, val3);
	case FUTEX_REQUEUE:
		return futex_requeue(uaddr, uaddr2, shared, (int)val,
				     (int)(u32)utime, NULL);
	case FUTEX_CMP_REQUEUE:
		return futex_requeue(uaddr, uaddr2, shared, (int)val,
				     (int)(u32)utime, &cmpval);
	case FUTEX_WAKE_OP:
		return futex_wake_op(uaddr, uaddr2, shared, (int)val,
				     (int)(u32)utime, val3);
	}
	return -ENOSYS;
}

/* Waiters queued now, in every bucket (the userspace suite's check). */
unsigned int futex_nr_queued(void)
{
	unsigned int i, n = 0;
	unsigned long flags;
	struct list_head *e;

	for (i = 0; i < FUTEX_BUCKETS; i++) {
		spin_lock_irqsave(&buckets[i].lock, flags);
		for (e = buckets[i].chain.next; e != &buckets[i].chain;
		     e = e->next)
			n++;
		spin_unlock_irqrestore(&buckets[i].lock, flags);
	}
	return n;
}
