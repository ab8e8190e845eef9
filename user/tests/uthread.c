// SPDX-License-Identifier: GPL-2.0
/*
 * uthread: threads with the same output on Debian's Linux 6.1 and here.
 *
 * A static glibc program using pthreads (create, join, mutexes, condition
 * variables, barriers, TLS, once, semaphores, timed waits, cancellation,
 * pthread_kill) and the calls under them (clone3, futex, tgkill,
 * set_robust_list), plus Linux's answers to bad input: futex's errors,
 * the clone flag combinations Linux refuses, a TLS past the user half;
 * process-directed signals taken by the thread that does not block them;
 * exit_group, fork and execve from a thread; affinity and getcpu;
 * getrusage and wait4's rusage; alarm and the ITIMER_REAL timer; four
 * busy processes on as many CPUs as there are (up to four).
 *
 * One line per check, "uthread: NAME: VALUE", nothing that legitimately
 * differs between kernels (tids, times, addresses). As pid 1 it ends with
 * reboot(POWER_OFF) (scripts/user_compare.py --prog uthread compares it
 * with Linux's, tests/uthread.linux.out); not pid 1 (the userspace suite)
 * it exits 0 if every check printed what Linux prints, else 1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <linux/sched.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/reboot.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define KADDR ((void *)0xffffffff81000000UL) /* Linux's text (nokaslr) */
#define NTHREADS 4

static int failures;
static char *self; /* argv[0], for the execve from a thread */

static void line(const char *name, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void line(const char *name, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	printf("uthread: %s: %s\n", name, buf);
	fflush(stdout);
}

/* A line with what Linux prints: a difference counts as a failure. */
static void expect(const char *name, const char *want, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void expect(const char *name, const char *want, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	line(name, "%s", buf);
	if (strcmp(buf, want)) {
		failures++;
		fprintf(stderr, "uthread: FAIL %s: want \"%s\"\n", name, want);
	}
}

static const char *ename(int e)
{
	const char *s = strerrorname_np(e);

	return s ? s : "E?";
}

/* A raw call's result: "0", "3", "-1 EINVAL". */
static void call(const char *name, const char *want, long r)
{
	if (r < 0)
		expect(name, want, "-1 %s", ename(errno));
	else
		expect(name, want, "%ld", r);
}

static const char *yes(bool b)
{
	return b ? "yes" : "no";
}

static long gettid_(void)
{
	return syscall(SYS_gettid);
}

static long futex(void *uaddr, int op, unsigned int val, const void *ts,
		  void *uaddr2, unsigned int val3)
{
	return syscall(SYS_futex, uaddr, op, val, ts, uaddr2, val3);
}

static void msleep(long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000L };

	nanosleep(&ts, NULL);
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

/* --- create, join, tids, TLS ------------------------------------------ */

static __thread int tls_value = 7;
static pid_t main_pid;
static atomic_int tid_ok, tls_ok;
static pthread_barrier_t tls_barrier;

static void *worker(void *arg)
{
	long i = (long)arg;

	if (getpid() == main_pid && gettid_() != main_pid)
		atomic_fetch_add(&tid_ok, 1);
	if (tls_value == 7) /* its own copy, initialised */
		tls_value = 100 + i;
	pthread_barrier_wait(&tls_barrier);
	if (tls_value == 100 + i)
		atomic_fetch_add(&tls_ok, 1);
	return (void *)(i * 10);
}

static void check_create_join(void)
{
	pthread_t t[NTHREADS];
	long sum = 0, i;
	void *r;

	main_pid = getpid();
	expect("main_tid", "yes", "%s", yes(gettid_() == getpid()));
	pthread_barrier_init(&tls_barrier, NULL, NTHREADS);
	for (i = 0; i < NTHREADS; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (i = 0; i < NTHREADS; i++) {
		pthread_join(t[i], &r);
		sum += (long)r;
	}
	expect("join_sum", "60", "%ld", sum);
	expect("thread_tids", "4", "%d", atomic_load(&tid_ok));
	expect("tls", "4 main 7", "%d main %d", atomic_load(&tls_ok),
	       tls_value);
	pthread_barrier_destroy(&tls_barrier);
}

/* --- mutexes, condition variables, barriers, once, rwlock, sem -------- */

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static long counter;

static void *adder(void *arg)
{
	for (int i = 0; i < 20000; i++) {
		pthread_mutex_lock(&mu);
		counter++;
		pthread_mutex_unlock(&mu);
	}
	return NULL;
}

static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int queue[8], qhead, qtail;
static bool done;

static void *consumer(void *arg)
{
	long sum = 0;

	pthread_mutex_lock(&mu);
	for (;;) {
		while (qhead == qtail && !done)
			pthread_cond_wait(&cv, &mu);
		if (qhead == qtail)
			break;
		sum += queue[qhead++ % 8];
		pthread_cond_broadcast(&cv);
	}
	pthread_mutex_unlock(&mu);
	return (void *)sum;
}

static pthread_barrier_t bar;
static atomic_int serials;

static void *barrier_worker(void *arg)
{
	for (int round = 0; round < 10; round++)
		if (pthread_barrier_wait(&bar) == PTHREAD_BARRIER_SERIAL_THREAD)
			atomic_fetch_add(&serials, 1);
	return NULL;
}

static pthread_once_t once = PTHREAD_ONCE_INIT;
static atomic_int once_calls;

static void once_fn(void)
{
	atomic_fetch_add(&once_calls, 1);
}

static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static sem_t sem;

static void *sync_misc(void *arg)
{
	pthread_once(&once, once_fn);
	pthread_rwlock_rdlock(&rw);
	pthread_rwlock_unlock(&rw);
	sem_post(&sem);
	return NULL;
}

static void run_n(void *(*fn)(void *), int n)
{
	pthread_t t[NTHREADS];

	for (int i = 0; i < n; i++)
		pthread_create(&t[i], NULL, fn, NULL);
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
}

static void check_sync(void)
{
	pthread_t c;
	void *r;
	int i;

	run_n(adder, NTHREADS);
	expect("mutex_counter", "80000", "%ld", counter);

	pthread_create(&c, NULL, consumer, NULL);
	for (i = 1; i <= 1000; i++) {
		pthread_mutex_lock(&mu);
		while (qtail - qhead == 8)
			pthread_cond_wait(&cv, &mu);
		queue[qtail++ % 8] = i;
		pthread_cond_broadcast(&cv);
		pthread_mutex_unlock(&mu);
	}
	pthread_mutex_lock(&mu);
	done = true;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	pthread_join(c, &r);
	expect("condvar_sum", "500500", "%ld", (long)r);

	pthread_barrier_init(&bar, NULL, NTHREADS);
	run_n(barrier_worker, NTHREADS);
	expect("barrier_serial", "10", "%d", atomic_load(&serials));

	sem_init(&sem, 0, 0);
	pthread_rwlock_wrlock(&rw);
	pthread_create(&c, NULL, sync_misc, NULL);
	msleep(20);
	pthread_rwlock_unlock(&rw); /* the reader waited for it */
	sem_wait(&sem);
	pthread_join(c, NULL);
	run_n(sync_misc, 3);
	for (i = 0; i < 3; i++)
		sem_wait(&sem);
	expect("once_rwlock_sem", "once 1", "once %d",
	       atomic_load(&once_calls));
}

/* --- timed waits ------------------------------------------------------ */

static void *timedlock(void *arg)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_nsec += 30 * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	return (void *)(long)pthread_mutex_timedlock(&mu, &ts);
}

static void check_timed(void)
{
	struct timespec past = { 1, 0 };
	pthread_t t;
	void *r;
	int ret;

	pthread_mutex_lock(&mu);
	pthread_create(&t, NULL, timedlock, NULL);
	pthread_join(t, &r);
	expect("mutex_timedlock", "ETIMEDOUT", "%s", ename((long)r));
	ret = pthread_cond_timedwait(&cv, &mu, &past);
	expect("cond_timedwait_past", "ETIMEDOUT", "%s", ename(ret));
	pthread_mutex_unlock(&mu);
}

/* --- cancellation ----------------------------------------------------- */

static int cancel_pipe[2];
static atomic_int cleanups;

static void cleanup(void *arg)
{
	atomic_fetch_add(&cleanups, 1);
}

static void *blocked_read(void *arg)
{
	char c;

	pthread_cleanup_push(cleanup, NULL);
	read(cancel_pipe[0], &c, 1); /* a cancellation point */
	pthread_cleanup_pop(0);
	return NULL;
}

static void unlock_mu(void *arg)
{
	pthread_mutex_unlock(&mu);
}

static void *blocked_condwait(void *arg)
{
	pthread_mutex_lock(&mu);
	pthread_cleanup_push(unlock_mu, NULL);
	for (;;)
		pthread_cond_wait(&cv, &mu); /* a cancellation point */
	pthread_cleanup_pop(1);
	return NULL;
}

static void check_cancel(void)
{
	pthread_t t;
	void *r;

	pipe(cancel_pipe);
	pthread_create(&t, NULL, blocked_read, NULL);
	msleep(20);
	pthread_cancel(t);
	pthread_join(t, &r);
	expect("cancel_read", "canceled yes cleanup 1",
	       "canceled %s cleanup %d", yes(r == PTHREAD_CANCELED),
	       atomic_load(&cleanups));
	pthread_create(&t, NULL, blocked_condwait, NULL);
	msleep(20);
	pthread_cancel(t);
	pthread_join(t, &r);
	expect("cancel_condwait", "canceled yes relocked yes",
	       "canceled %s relocked %s", yes(r == PTHREAD_CANCELED),
	       yes(pthread_mutex_trylock(&mu) == 0));
	pthread_mutex_unlock(&mu);
	close(cancel_pipe[0]);
	close(cancel_pipe[1]);
}

/* --- signals and threads ---------------------------------------------- */

static atomic_long handler_tid;
static atomic_int handler_code;

static void on_usr(int sig, siginfo_t *si, void *uc)
{
	atomic_store(&handler_tid, gettid_());
	atomic_store(&handler_code, si->si_code);
}

static atomic_long worker_tid;
static int sig_pipe[2];

static void *sig_reader(void *arg)
{
	char c;
	long r;

	atomic_store(&worker_tid, gettid_());
	r = read(sig_pipe[0], &c, 1);
	return (void *)(r < 0 ? (long)errno : 0L);
}

static void check_signals(void)
{
	struct sigaction sa = { .sa_sigaction = on_usr,
				.sa_flags = SA_SIGINFO };
	sigset_t set, old;
	pthread_t t;
	void *r;

	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	pipe(sig_pipe);

	/* pthread_kill: tgkill to that thread, SI_TKILL. */
	pthread_create(&t, NULL, sig_reader, NULL);
	while (!atomic_load(&worker_tid))
		msleep(1);
	msleep(20);
	pthread_kill(t, SIGUSR1);
	pthread_join(t, &r);
	expect("pthread_kill", "in thread yes SI_TKILL yes read EINTR",
	       "in thread %s SI_TKILL %s read %s",
	       yes(atomic_load(&handler_tid) == atomic_load(&worker_tid)),
	       yes(atomic_load(&handler_code) == SI_TKILL), ename((long)r));

	/* kill() to the process: the thread that does not block it. */
	atomic_store(&worker_tid, 0);
	pthread_create(&t, NULL, sig_reader, NULL); /* with SIGUSR2 open */
	while (!atomic_load(&worker_tid))
		msleep(1);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &set, &old);
	msleep(20);
	kill(getpid(), SIGUSR2);
	pthread_join(t, &r);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	expect("kill_process", "in unblocked thread yes SI_USER yes read EINTR",
	       "in unblocked thread %s SI_USER %s read %s",
	       yes(atomic_load(&handler_tid) == atomic_load(&worker_tid)),
	       yes(atomic_load(&handler_code) == SI_USER), ename((long)r));

	call("tgkill_sig0", "0", syscall(SYS_tgkill, getpid(), gettid_(), 0));
	call("tgkill_wrong_tgid", "-1 ESRCH",
	     syscall(SYS_tgkill, getpid() + 100000, gettid_(), 0));
	call("tgkill_no_thread", "-1 ESRCH",
	     syscall(SYS_tgkill, getpid(), 0x3fffffff, SIGUSR1));
	call("tgkill_bad_sig", "-1 EINVAL",
	     syscall(SYS_tgkill, getpid(), gettid_(), 65));
	call("tgkill_zero_tid", "-1 EINVAL",
	     syscall(SYS_tgkill, getpid(), 0, SIGUSR1));
	close(sig_pipe[0]);
	close(sig_pipe[1]);
	signal(SIGUSR1, SIG_DFL);
	signal(SIGUSR2, SIG_DFL);
}

/* --- exit, exit_group, fork and execve from threads ------------------- */

static int child_status(pid_t pid)
{
	int st = 0;

	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return st;
}

static const char *decode(int st)
{
	static char buf[32];

	if (st < 0)
		return "no child";
	if (WIFEXITED(st))
		snprintf(buf, sizeof(buf), "exited %d", WEXITSTATUS(st));
	else
		snprintf(buf, sizeof(buf), "signaled %d", WTERMSIG(st));
	return buf;
}

static void *sleeper(void *arg)
{
	for (;;)
		msleep(1000);
	return NULL;
}

static unsigned int forever;

static void *futex_forever(void *arg)
{
	for (;;)
		futex(&forever, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
	return NULL;
}

static void *exiter(void *arg)
{
	msleep(20);
	exit(9); /* exit_group: the sleepers end too */
}

static void *late_return(void *arg)
{
	msleep(30);
	return NULL;
}

static void *forker(void *arg)
{
	pid_t pid = fork();

	if (!pid)
		_exit(getpid() == gettid_() ? 3 : 4);
	return (void *)(long)child_status(pid);
}

static void *execer(void *arg)
{
	char *argv[] = { self, "exec-child", NULL };

	msleep(20);
	execv(self, argv);
	_exit(99);
}

static void check_exits(void)
{
	pthread_t t;
	pid_t pid;
	void *r;

	pid = fork();
	if (!pid) {
		pthread_create(&t, NULL, sleeper, NULL);
		pthread_create(&t, NULL, futex_forever, NULL);
		pthread_create(&t, NULL, exiter, NULL);
		sleeper(NULL);
	}
	expect("exit_group_from_thread", "exited 9", "%s",
	       decode(child_status(pid)));

	pid = fork();
	if (!pid) {
		pthread_create(&t, NULL, late_return, NULL);
		pthread_exit(NULL); /* the process ends with its last thread */
	}
	expect("main_pthread_exit", "exited 0", "%s",
	       decode(child_status(pid)));

	pthread_create(&t, NULL, forker, NULL);
	pthread_join(t, &r);
	expect("fork_from_thread", "exited 3", "%s", decode((long)r));

	pid = fork();
	if (!pid) {
		pthread_create(&t, NULL, sleeper, NULL);
		pthread_create(&t, NULL, execer, NULL);
		sleeper(NULL);
	}
	expect("execve_from_thread", "exited 4", "%s",
	       decode(child_status(pid)));
}

/* The image execer() started: one thread, its tid the pid. */
static int exec_child(void)
{
	line("exec_child", "tid is pid %s", yes(gettid_() == getpid()));
	return gettid_() == getpid() ? 4 : 5;
}

/* --- futex ------------------------------------------------------------ */

static unsigned int fw1, fw2;
static atomic_int waiting;

static void *futex_waiter(void *arg)
{
	unsigned int *w = arg ? arg : &fw1;

	atomic_fetch_add(&waiting, 1);
	return (void *)futex(w, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
}

static void *futex_waiter_shared(void *arg)
{
	atomic_fetch_add(&waiting, 1);
	return (void *)futex(&fw1, FUTEX_WAIT, 0, NULL, NULL, 0);
}

/* Starts n waiters of fn and gives them time to queue. */
static void start_waiters(pthread_t *t, int n, void *(*fn)(void *), void *arg)
{
	atomic_store(&waiting, 0);
	for (int i = 0; i < n; i++)
		pthread_create(&t[i], NULL, fn, arg);
	while (atomic_load(&waiting) < n)
		msleep(1);
	msleep(50);
}

static long join_all(pthread_t *t, int n)
{
	long bad = 0;
	void *r;

	for (int i = 0; i < n; i++) {
		pthread_join(t[i], &r);
		bad += (long)r != 0;
	}
	return bad;
}

static void check_futex(void)
{
	struct timespec zero = { 0, 0 }, ms10 = { 0, 10000000 },
			badts = { 0, 2000000000L };
	char word[8] = { 0 };
	pthread_t t[2];
	long r, r2, bad;

	call("futex_unaligned", "-1 EINVAL",
	     futex(word + 1, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0));
	call("futex_null", "-1 EFAULT",
	     futex(NULL, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0));
	call("futex_kernel", "-1 EFAULT",
	     futex(KADDR, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0));
	call("futex_wake_null_private", "0",
	     futex(NULL, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0));
	call("futex_wake_null_shared", "-1 EFAULT",
	     futex(NULL, FUTEX_WAKE, 1, NULL, NULL, 0));
	call("futex_value_changed", "-1 EAGAIN",
	     futex(&fw1, FUTEX_WAIT_PRIVATE, 1, NULL, NULL, 0));
	call("futex_bad_op", "-1 ENOSYS",
	     futex(&fw1, 14 | FUTEX_PRIVATE_FLAG, 0, NULL, NULL, 0));
	call("futex_fd_op", "-1 ENOSYS", futex(&fw1, 2, 0, NULL, NULL, 0));
	call("futex_wake_realtime", "-1 ENOSYS",
	     futex(&fw1, FUTEX_WAKE | FUTEX_CLOCK_REALTIME, 1, NULL, NULL, 0));
	call("futex_timeout_zero", "-1 ETIMEDOUT",
	     futex(&fw1, FUTEX_WAIT_PRIVATE, 0, &zero, NULL, 0));
	call("futex_timeout_10ms", "-1 ETIMEDOUT",
	     futex(&fw1, FUTEX_WAIT_PRIVATE, 0, &ms10, NULL, 0));
	call("futex_bitset_past", "-1 ETIMEDOUT",
	     futex(&fw1, FUTEX_WAIT_BITSET_PRIVATE, 0, &zero, NULL, ~0U));
	call("futex_bitset_realtime_past", "-1 ETIMEDOUT",
	     futex(&fw1, FUTEX_WAIT_BITSET_PRIVATE | FUTEX_CLOCK_REALTIME, 0,
		   &zero, NULL, ~0U));
	call("futex_bad_timespec", "-1 EINVAL",
	     futex(&fw1, FUTEX_WAIT_PRIVATE, 0, &badts, NULL, 0));
	call("futex_bitset_zero", "-1 EINVAL",
	     futex(&fw1, FUTEX_WAIT_BITSET_PRIVATE, 0, NULL, NULL, 0));
	call("futex_wake_bitset_zero", "-1 EINVAL",
	     futex(&fw1, FUTEX_WAKE_BITSET_PRIVATE, 1, NULL, NULL, 0));
	call("futex_wake_nobody", "0",
	     futex(&fw1, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0));
	call("futex_cmp_requeue_changed", "-1 EAGAIN",
	     futex(&fw1, FUTEX_CMP_REQUEUE_PRIVATE, 1, (void *)1L, &fw2, 5));
	call("futex_requeue_negative", "-1 EINVAL",
	     futex(&fw1, FUTEX_REQUEUE_PRIVATE, -1, (void *)1L, &fw2, 0));

	start_waiters(t, 1, futex_waiter, NULL);
	r = futex(&fw1, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	bad = join_all(t, 1);
	expect("futex_wake_one", "woke 1 waiter ok", "woke %ld waiter %s", r,
	       bad ? "bad" : "ok");

	/* A private and a shared futex of one word are two futexes. */
	start_waiters(t, 1, futex_waiter, NULL);
	r = futex(&fw1, FUTEX_WAKE, 1, NULL, NULL, 0);
	expect("futex_shared_wakes_private", "0", "%ld", r);
	futex(&fw1, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	join_all(t, 1);
	start_waiters(t, 1, futex_waiter_shared, NULL);
	r = futex(&fw1, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	r2 = futex(&fw1, FUTEX_WAKE, 1, NULL, NULL, 0);
	join_all(t, 1);
	expect("futex_shared", "private 0 shared 1", "private %ld shared %ld",
	       r, r2);

	start_waiters(t, 2, futex_waiter, NULL);
	r = futex(&fw1, FUTEX_CMP_REQUEUE_PRIVATE, 0, (void *)2L, &fw2, 0);
	r2 = futex(&fw1, FUTEX_WAKE_PRIVATE, 10, NULL, NULL, 0);
	r2 = r2 * 100 + futex(&fw2, FUTEX_WAKE_PRIVATE, 10, NULL, NULL, 0);
	bad = join_all(t, 2);
	expect("futex_cmp_requeue", "2 then 0 and 2 ok",
	       "%ld then %ld and %ld %s", r, r2 / 100, r2 % 100,
	       bad ? "bad" : "ok");

	start_waiters(t, 2, futex_waiter, NULL);
	r = futex(&fw1, FUTEX_REQUEUE_PRIVATE, 1, (void *)1L, &fw2, 0);
	r2 = futex(&fw2, FUTEX_WAKE_PRIVATE, 10, NULL, NULL, 0);
	bad = join_all(t, 2);
	expect("futex_requeue", "2 then 1 ok", "%ld then %ld %s", r, r2,
	       bad ? "bad" : "ok");

	fw2 = 0;
	start_waiters(t, 1, futex_waiter, &fw2);
	r = futex(&fw1, FUTEX_WAKE_OP_PRIVATE, 1, (void *)1L, &fw2,
		  FUTEX_OP(FUTEX_OP_SET, 5, FUTEX_OP_CMP_EQ, 0));
	bad = join_all(t, 1);
	expect("futex_wake_op", "1 word 5 ok", "%ld word %u %s", r, fw2,
	       bad ? "bad" : "ok");
	r = futex(&fw1, FUTEX_WAKE_OP_PRIVATE, 1, (void *)1L, &fw2,
		  FUTEX_OP(FUTEX_OP_ADD, 1, FUTEX_OP_CMP_GT, 100));
	expect("futex_wake_op_false", "0 word 6", "%ld word %u", r, fw2);
	call("futex_wake_op_bad_op", "-1 ENOSYS",
	     futex(&fw1, FUTEX_WAKE_OP_PRIVATE, 1, (void *)1L, &fw2,
		   (7 << 28)));
	call("futex_wake_op_fault", "-1 EFAULT",
	     futex(&fw1, FUTEX_WAKE_OP_PRIVATE, 1, (void *)1L, KADDR,
		   FUTEX_OP(FUTEX_OP_SET, 5, FUTEX_OP_CMP_EQ, 0)));
	fw2 = 0;
}

/* --- clone and clone3: what Linux refuses ----------------------------- */

static long raw_clone(unsigned long flags, void *ptid, void *ctid,
		      unsigned long tls)
{
	long r = syscall(SYS_clone, flags, NULL, ptid, ctid, tls);

	if (r == 0)
		syscall(SYS_exit_group, 0); /* a child that should not be */
	return r;
}

static long raw_clone3(struct clone_args *a, size_t size)
{
	long r = syscall(SYS_clone3, a, size);

	if (r == 0)
		syscall(SYS_exit_group, 0);
	return r;
}

static void clone_reaped(const char *name, long r)
{
	if (r > 0)
		expect(name, "exited 0", "%s", decode(child_status(r)));
	else
		expect(name, "exited 0", "-1 %s", ename(errno));
}

static int settid;

static void check_clone(void)
{
	struct clone_args a = { 0 };
	char big[8192] = { 0 };
	long r;

	call("clone_thread_without_sighand", "-1 EINVAL",
	     raw_clone(CLONE_VM | CLONE_THREAD, NULL, NULL, 0));
	call("clone_sighand_without_vm", "-1 EINVAL",
	     raw_clone(CLONE_SIGHAND | SIGCHLD, NULL, NULL, 0));
	call("clone_fs_newns", "-1 EINVAL",
	     raw_clone(CLONE_FS | CLONE_NEWNS | SIGCHLD, NULL, NULL, 0));
	call("clone_settls_noncanonical", "-1 EPERM",
	     raw_clone(CLONE_SETTLS | SIGCHLD, NULL, NULL, 1UL << 63));
	call("clone_settls_task_size", "-1 EPERM",
	     raw_clone(CLONE_SETTLS | SIGCHLD, NULL, NULL, 0x7ffffffff000UL));
	clone_reaped("clone_parent_settid_bad",
		     raw_clone(CLONE_PARENT_SETTID | SIGCHLD, (void *)8, NULL,
			       0));
	clone_reaped("clone_child_settid_bad",
		     raw_clone(CLONE_CHILD_SETTID | SIGCHLD, NULL, (void *)8,
			       0));
	r = syscall(SYS_clone, CLONE_CHILD_SETTID | SIGCHLD, NULL, NULL,
		    &settid, 0);
	if (r == 0)
		syscall(SYS_exit_group, settid == getpid() ? 0 : 1);
	clone_reaped("clone_child_settid", r);

	call("clone3_small", "-1 EINVAL", raw_clone3(&a, 32));
	call("clone3_too_big", "-1 E2BIG",
	     raw_clone3((struct clone_args *)big, sizeof(big)));
	big[100] = 1;
	call("clone3_nonzero_tail", "-1 E2BIG",
	     raw_clone3((struct clone_args *)big, 128));
	a.flags = CLONE_THREAD | CLONE_VM;
	call("clone3_thread_without_sighand", "-1 EINVAL",
	     raw_clone3(&a, sizeof(a)));
	a.flags = 0;
	a.exit_signal = 65;
	call("clone3_bad_exit_signal", "-1 EINVAL", raw_clone3(&a, sizeof(a)));
	a.exit_signal = SIGCHLD;
	a.stack_size = 4096;
	call("clone3_size_without_stack", "-1 EINVAL",
	     raw_clone3(&a, sizeof(a)));
	a.stack_size = 0;
	a.flags = CLONE_SETTLS;
	a.tls = 1UL << 63;
	call("clone3_settls_noncanonical", "-1 EPERM",
	     raw_clone3(&a, sizeof(a)));
	a.flags = 0;
	clone_reaped("clone3_fork", raw_clone3(&a, sizeof(a)));
}

/* --- scheduling: affinity, getcpu ------------------------------------- */

static void check_affinity(void)
{
	cpu_set_t set, all;
	unsigned int cpu = 99;

	sched_getaffinity(0, sizeof(all), &all);
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	call("setaffinity_cpu0", "0", sched_setaffinity(0, sizeof(set), &set));
	expect("getcpu_after", "0", "%d", sched_getcpu());
	call("getcpu_raw", "0", syscall(SYS_getcpu, &cpu, NULL, NULL));
	expect("getcpu_raw_cpu", "0", "%u", cpu);
	sched_getaffinity(0, sizeof(set), &set);
	expect("getaffinity_count", "1", "%d", CPU_COUNT(&set));
	CPU_ZERO(&set);
	call("setaffinity_empty", "-1 EINVAL",
	     sched_setaffinity(0, sizeof(set), &set));
	call("setaffinity_no_thread", "-1 ESRCH",
	     sched_setaffinity(0x3fffffff, sizeof(all), &all));
	call("setaffinity_restore", "0",
	     sched_setaffinity(0, sizeof(all), &all));
}

/*
 * Four busy processes: within 5 s there is a moment when they run on as
 * many CPUs as there are (up to four), each reporting its CPU every 20 ms
 * through a pipe. (Moments, not the end: a CPU may be busy for a while
 * with something else, in either kernel.)
 */
static void check_busy_spread(void)
{
	int n = sysconf(_SC_NPROCESSORS_ONLN), want = n < 4 ? n : 4;
	int rep[2], last[4] = { -1, -1, -1, -1 }, i, distinct = 0;
	unsigned char b;
	long deadline;
	pid_t pid[4];

	pipe(rep);
	for (i = 0; i < 4; i++) {
		pid[i] = fork();
		if (!pid[i]) {
			close(rep[0]);
			for (;;) {
				long end = now_ms() + 20;

				while (now_ms() < end)
					;
				b = i * 16 + sched_getcpu();
				write(rep[1], &b, 1);
			}
		}
	}
	close(rep[1]);
	deadline = now_ms() + 5000;
	while (distinct < want && now_ms() < deadline &&
	       read(rep[0], &b, 1) == 1) {
		unsigned int seen = 0;

		last[(b / 16) % 4] = b % 16;
		for (i = 0; i < 4; i++)
			if (last[i] >= 0)
				seen |= 1U << last[i];
		distinct = __builtin_popcount(seen);
	}
	for (i = 0; i < 4; i++) {
		kill(pid[i], SIGKILL);
		child_status(pid[i]);
	}
	close(rep[0]);
	expect("busy_processes_spread", "yes", "%s", yes(distinct == want));
}

/* --- rusage and timers ------------------------------------------------ */

static void check_rusage(void)
{
	struct rusage ru;
	long end, us;
	pid_t pid;
	int st;

	msleep(5);
	getrusage(RUSAGE_SELF, &ru);
	expect("getrusage_self", "nvcsw yes maxrss yes", "nvcsw %s maxrss %s",
	       yes(ru.ru_nvcsw > 0), yes(ru.ru_maxrss > 0));
	call("getrusage_thread", "0", getrusage(RUSAGE_THREAD, &ru));
	call("getrusage_bad_who", "-1 EINVAL", getrusage(5, &ru));
	call("getrusage_fault", "-1 EFAULT",
	     syscall(SYS_getrusage, RUSAGE_SELF, KADDR));

	pid = fork();
	if (!pid) {
		msleep(5);
		end = now_ms() + 100;
		while (now_ms() < end)
			;
		_exit(0);
	}
	memset(&ru, 0, sizeof(ru));
	wait4(pid, &st, 0, &ru);
	us = ru.ru_utime.tv_sec * 1000000L + ru.ru_utime.tv_usec +
	     ru.ru_stime.tv_sec * 1000000L + ru.ru_stime.tv_usec;
	expect("wait4_rusage", "time yes nvcsw yes maxrss yes",
	       "time %s nvcsw %s maxrss %s", yes(us >= 20000),
	       yes(ru.ru_nvcsw > 0), yes(ru.ru_maxrss > 0));
	getrusage(RUSAGE_CHILDREN, &ru);
	expect("getrusage_children", "nvcsw yes", "nvcsw %s",
	       yes(ru.ru_nvcsw > 0));
}

static atomic_int alarms;

static void on_alarm(int sig)
{
	atomic_fetch_add(&alarms, 1);
}

static void check_timers(void)
{
	struct itimerval it = { { 0, 0 }, { 0, 20000 } }, old;
	struct sigaction sa = { .sa_handler = on_alarm };
	int p[2];
	char c;
	long r;

	sigaction(SIGALRM, &sa, NULL);
	call("alarm_none", "0", alarm(5));
	call("alarm_left", "5", alarm(0));
	pipe(p);
	call("setitimer_real", "0", setitimer(ITIMER_REAL, &it, NULL));
	r = read(p[0], &c, 1);
	expect("itimer_fires", "read EINTR alarms 1", "read %s alarms %d",
	       r < 0 ? ename(errno) : "data", atomic_load(&alarms));
	it.it_value.tv_sec = 3;
	it.it_value.tv_usec = 0;
	setitimer(ITIMER_REAL, &it, NULL);
	getitimer(ITIMER_REAL, &old);
	expect("getitimer", "2..3 yes", "2..3 %s",
	       yes(old.it_value.tv_sec >= 2 && old.it_value.tv_sec <= 3));
	it.it_value.tv_sec = 0;
	setitimer(ITIMER_REAL, &it, &old);
	expect("setitimer_old", "yes", "%s", yes(old.it_value.tv_sec <= 3));
	it.it_value.tv_usec = 2000000;
	call("setitimer_bad_usec", "-1 EINVAL",
	     setitimer(ITIMER_REAL, &it, NULL));
	call("setitimer_bad_which", "-1 EINVAL",
	     syscall(SYS_setitimer, 9, &it, NULL));
	close(p[0]);
	close(p[1]);
	signal(SIGALRM, SIG_DFL);
}

/* --- perf bench sched pipe -T: two threads, two pipes ----------------- */

static int ping[2], pong[2];

static void *pong_thread(void *arg)
{
	int v;

	for (int i = 0; i < 1000; i++) {
		read(ping[0], &v, sizeof(v));
		write(pong[1], &v, sizeof(v));
	}
	return NULL;
}

static void check_pipe_threads(void)
{
	pthread_t t;
	int i, v, ok = 0;

	pipe(ping);
	pipe(pong);
	pthread_create(&t, NULL, pong_thread, NULL);
	for (i = 0; i < 1000; i++) {
		write(ping[1], &i, sizeof(i));
		read(pong[0], &v, sizeof(v));
		ok += v == i;
	}
	pthread_join(t, NULL);
	expect("pipe_threads", "1000 round trips", "%d round trips", ok);
	close(ping[0]);
	close(ping[1]);
	close(pong[0]);
	close(pong[1]);
}

int main(int argc, char **argv)
{
	bool pid1 = getpid() == 1;

	self = argv[0];
	if (argc > 1 && !strcmp(argv[1], "exec-child"))
		return exec_child();
	line("start", "uthread");
	check_create_join();
	check_sync();
	check_timed();
	check_cancel();
	check_signals();
	check_exits();
	check_futex();
	check_clone();
	check_affinity();
	check_busy_spread();
	check_rusage();
	check_timers();
	check_pipe_threads();
	line("end", "%d failures", failures);
	if (!pid1)
		return failures ? 1 : 0;
	reboot(RB_POWER_OFF);
	line("reboot", "returned %s", ename(errno));
	return 1;
}
