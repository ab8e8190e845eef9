// SPDX-License-Identifier: GPL-2.0
/*
 * pipe_bench [LOOPS [CPU [threads]]]: what "perf bench sched pipe"
 * measures, as two processes (or, with "threads", two threads of one
 * process: perf's -T). Both are pinned to CPU (default 0; "any": not
 * pinned, the scheduler places them); one writes a word into one pipe, the
 * other reads it and writes it back through the other pipe, LOOPS round
 * trips (default 10000) after 100 untimed ones. Prints
 *
 *     bench: pipe_roundtrip iters=LOOPS total=T per=T/LOOPS cpu=CPU \
 *            schedstats=S [threads=1] [cpus=N]
 *
 * where S is /proc/sys/kernel/sched_schedstats (0, 1, or -1 if unreadable),
 * CPU -1 for "any", N the online CPUs when not pinned.
 * System calls: sched_setaffinity, pipe, fork or clone3, read, write,
 * wait4 or futex (pthread_join), exit.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "bench.h"

#define NAME "pipe_roundtrip"
#define WARMUP 100

static void read_word(int fd, unsigned int *w)
{
	if (read(fd, w, sizeof(*w)) != sizeof(*w))
		bench_fail(NAME, "read");
}

static void write_word(int fd, unsigned int w)
{
	if (write(fd, &w, sizeof(w)) != sizeof(w))
		bench_fail(NAME, "write");
}

static bool echo_threaded;
static void echo_loop(int in, int out);

static int echo_fds[2];

static void *echo_thread(void *arg)
{
	echo_loop(echo_fds[0], echo_fds[1]);
	return NULL;
}

/* The echo's end: a thread returns when the pipe closes, a child exits. */
static void echo_loop(int in, int out)
{
	unsigned int w;
	ssize_t n;

	for (;;) {
		n = read(in, &w, sizeof(w));
		if (n == 0)
			break;
		if (n != sizeof(w))
			_exit(2);
		if (write(out, &w, sizeof(w)) != sizeof(w))
			_exit(3);
	}
	if (!echo_threaded)
		_exit(0);
}

int main(int argc, char **argv)
{
	unsigned long loops = bench_arg(argc, argv, 1, 10000, NAME);
	bool any = argc > 2 && !strcmp(argv[2], "any");
	long cpu = argc > 2 && !any ? strtol(argv[2], NULL, 10) : any ? -1 : 0;
	int to_child[2], to_parent[2], status;
	pthread_t thread;
	unsigned long i;
	unsigned int w;
	uint64_t t0, t1;
	cpu_set_t set;
	pid_t pid = 0;

	echo_threaded = argc > 3 && !strcmp(argv[3], "threads");
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (!any && sched_setaffinity(0, sizeof(set), &set))
		bench_fail(NAME, "sched_setaffinity");
	if (pipe(to_child) || pipe(to_parent))
		bench_fail(NAME, "pipe");

	if (echo_threaded) { /* perf's -T: glibc's clone3 of a thread */
		echo_fds[0] = to_child[0];
		echo_fds[1] = to_parent[1];
		if (pthread_create(&thread, NULL, echo_thread, NULL))
			bench_fail(NAME, "pthread_create");
	} else {
		/* The raw fork(2): the child inherits the affinity. */
		pid = syscall(SYS_fork);
		if (pid < 0)
			bench_fail(NAME, "fork");
		if (pid == 0) {
			close(to_child[1]);
			close(to_parent[0]);
			echo_loop(to_child[0], to_parent[1]);
		}
		close(to_child[0]);
		close(to_parent[1]);
	}

	for (i = 0; i < WARMUP; i++) {
		write_word(to_child[1], i);
		read_word(to_parent[0], &w);
	}
	t0 = bench_tsc();
	for (i = 0; i < loops; i++) {
		write_word(to_child[1], i);
		read_word(to_parent[0], &w);
	}
	t1 = bench_tsc();
	if (w != (unsigned int)(loops - 1)) {
		errno = EPROTO;
		bench_fail(NAME, "wrong_word");
	}

	close(to_child[1]);
	if (echo_threaded) {
		if (pthread_join(thread, NULL))
			bench_fail(NAME, "pthread_join");
	} else {
		if (waitpid(pid, &status, 0) != pid)
			bench_fail(NAME, "wait4");
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			errno = ECHILD;
			bench_fail(NAME, "child_failed");
		}
	}
	printf("bench: %s iters=%lu total=%llu per=%llu cpu=%ld schedstats=%d",
	       NAME, loops, (unsigned long long)(t1 - t0),
	       (unsigned long long)((t1 - t0) / loops), cpu,
	       bench_schedstats_read());
	if (echo_threaded)
		printf(" threads=1");
	if (any)
		printf(" cpus=%ld", sysconf(_SC_NPROCESSORS_ONLN));
	printf("\n");
	return 0;
}
