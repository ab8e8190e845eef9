// SPDX-License-Identifier: GPL-2.0
/*
 * The host side of the engine's fuzzer: threads, locks and the clock from
 * libc and pthreads, and main(). The kernel side (kernel.c) reaches them
 * only through host.h.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <asm/prctl.h>
#include <sys/syscall.h>
#include "host.h"

void host_write(const char *buf, unsigned long len)
{
	fwrite(buf, 1, len, stderr);
}

void host_fail(void)
{
	fflush(stderr);
	fflush(stdout);
	_exit(1);
}

static void host_check(int err, const char *what)
{
	if (err) {
		fprintf(stderr, "fuzz-engine: %s: %s\n", what, strerror(err));
		host_fail();
	}
}

void *host_malloc(unsigned long size)
{
	return malloc(size);
}

void host_free(void *p)
{
	free(p);
}

void *host_map_low(unsigned long size)
{
	unsigned long hint;
	void *p;

	for (hint = 0x40000000ul; hint < 0x78000000ul; hint += 0x1000000ul) {
		p = mmap((void *)hint, size, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1,
			 0);
		if (p != MAP_FAILED)
			return p;
	}
	host_check(errno, "mmap of the module area");
	return NULL;
}

static void *host_alloc(unsigned long size, const char *what)
{
	void *p = calloc(1, size);

	if (!p)
		host_check(ENOMEM, what);
	return p;
}

void *host_lock_new(void)
{
	pthread_mutex_t *m = host_alloc(sizeof(*m), "lock");

	host_check(pthread_mutex_init(m, NULL), "pthread_mutex_init");
	return m;
}

void host_lock(void *lock)
{
	host_check(pthread_mutex_lock(lock), "pthread_mutex_lock");
}

void host_unlock(void *lock)
{
	host_check(pthread_mutex_unlock(lock), "pthread_mutex_unlock");
}

void *host_rwlock_new(void)
{
	pthread_rwlock_t *rw = host_alloc(sizeof(*rw), "rwlock");

	host_check(pthread_rwlock_init(rw, NULL), "pthread_rwlock_init");
	return rw;
}

void host_read_lock(void *rw)
{
	host_check(pthread_rwlock_rdlock(rw), "pthread_rwlock_rdlock");
}

void host_read_unlock(void *rw)
{
	host_check(pthread_rwlock_unlock(rw), "pthread_rwlock_unlock");
}

void host_write_lock(void *rw)
{
	host_check(pthread_rwlock_wrlock(rw), "pthread_rwlock_wrlock");
}

void host_write_unlock(void *rw)
{
	host_check(pthread_rwlock_unlock(rw), "pthread_rwlock_unlock");
}

void *host_cond_new(void)
{
	pthread_cond_t *c = host_alloc(sizeof(*c), "cond");
	pthread_condattr_t attr;

	host_check(pthread_condattr_init(&attr), "pthread_condattr_init");
	host_check(pthread_condattr_setclock(&attr, CLOCK_MONOTONIC),
		   "pthread_condattr_setclock");
	host_check(pthread_cond_init(c, &attr), "pthread_cond_init");
	pthread_condattr_destroy(&attr);
	return c;
}

void host_cond_wait(void *cond, void *lock)
{
	host_check(pthread_cond_wait(cond, lock), "pthread_cond_wait");
}

void host_cond_wait_until(void *cond, void *lock,
			  unsigned long long deadline_ns)
{
	struct timespec ts = {
		.tv_sec = deadline_ns / 1000000000ull,
		.tv_nsec = deadline_ns % 1000000000ull,
	};
	int err = pthread_cond_timedwait(cond, lock, &ts);

	if (err != ETIMEDOUT)
		host_check(err, "pthread_cond_timedwait");
}

void host_cond_broadcast(void *cond)
{
	host_check(pthread_cond_broadcast(cond), "pthread_cond_broadcast");
}

unsigned long long host_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

void host_yield(void)
{
	sched_yield();
}

void host_sleep_ns(unsigned long long ns)
{
	struct timespec ts = { ns / 1000000000ull, ns % 1000000000ull };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

void host_set_gs(unsigned long gs_base)
{
	if (syscall(SYS_arch_prctl, ARCH_SET_GS, gs_base))
		host_check(errno, "arch_prctl(ARCH_SET_GS)");
}

struct host_thread {
	pthread_t tid;
	void (*fn)(void *arg);
	void *arg;
	unsigned long gs_base;
};

static void *host_thread_body(void *p)
{
	struct host_thread *t = p;

	host_set_gs(t->gs_base);
	t->fn(t->arg);
	return NULL;
}

void *host_thread_start(void (*fn)(void *arg), void *arg, unsigned long gs_base)
{
	struct host_thread *t = host_alloc(sizeof(*t), "thread");

	t->fn = fn;
	t->arg = arg;
	t->gs_base = gs_base;
	host_check(pthread_create(&t->tid, NULL, host_thread_body, t),
		   "pthread_create");
	return t;
}

void host_thread_join(void *thread)
{
	struct host_thread *t = thread;

	host_check(pthread_join(t->tid, NULL), "pthread_join");
	free(t);
}

static void usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [--threads N] [--ops N] [--seconds S] [--seed S]\n"
		"       [--drop-write N] [-v]\n"
		"  N worker threads (default 4) do random static key, deferred key,\n"
		"  static call, queued batch, CPU hotplug and module operations on the\n"
		"  engine built for the host; the run stops after --ops operations in\n"
		"  all or --seconds, whichever comes first (default 100000 ops), then\n"
		"  checks every invariant. Exit status 0: clean; 1: a broken invariant,\n"
		"  an unexpected WARN or a sanitizer report; 2: bad arguments.\n"
		"  --drop-write N: the fake patch engine loses its Nth write, a bug\n"
		"  planted on purpose that the checks must catch (status 1).\n",
		prog);
	exit(2);
}

static unsigned long long number(const char *prog, const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || !*s || *end)
		usage(prog);
	return v;
}

int main(int argc, char **argv)
{
	struct host_args a = { .threads = 4, .ops = 100000, .seed = 1 };
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-v")) {
			a.verbose = 1;
			continue;
		}
		if (i + 1 >= argc)
			usage(argv[0]);
		if (!strcmp(argv[i], "--threads"))
			a.threads = number(argv[0], argv[++i]);
		else if (!strcmp(argv[i], "--ops"))
			a.ops = number(argv[0], argv[++i]);
		else if (!strcmp(argv[i], "--seconds"))
			a.seconds = number(argv[0], argv[++i]);
		else if (!strcmp(argv[i], "--seed"))
			a.seed = number(argv[0], argv[++i]);
		else if (!strcmp(argv[i], "--drop-write"))
			a.drop_write = number(argv[0], argv[++i]);
		else
			usage(argv[0]);
	}
	if (!a.threads || a.threads > 64 || (!a.ops && !a.seconds))
		usage(argv[0]);
	return fuzz_main(&a);
}
