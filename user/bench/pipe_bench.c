// SPDX-License-Identifier: GPL-2.0
/*
 * pipe_bench [LOOPS [CPU]]: what "perf bench sched pipe" measures, as two
 * processes. Both are pinned to CPU (default 0); the parent writes a word
 * into one pipe, the child reads it and writes it back through the other,
 * LOOPS round trips (default 10000) after 100 untimed ones. Prints
 *
 *     bench: pipe_roundtrip iters=LOOPS total=T per=T/LOOPS cpu=CPU \
 *            schedstats=S
 *
 * where S is /proc/sys/kernel/sched_schedstats (0, 1, or -1 if unreadable).
 * System calls: sched_setaffinity, pipe, fork, read, write, wait4, exit.
 */
#define _GNU_SOURCE
#include <sched.h>
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

/* The child: echo every word back until the parent closes its end. */
static void echo_loop(int in, int out)
{
	unsigned int w;
	ssize_t n;

	for (;;) {
		n = read(in, &w, sizeof(w));
		if (n == 0)
			_exit(0);
		if (n != sizeof(w))
			_exit(2);
		if (write(out, &w, sizeof(w)) != sizeof(w))
			_exit(3);
	}
}

int main(int argc, char **argv)
{
	unsigned long loops = bench_arg(argc, argv, 1, 10000, NAME);
	unsigned long cpu = argc > 2 ? strtoul(argv[2], NULL, 10) : 0;
	int to_child[2], to_parent[2], status;
	unsigned long i;
	unsigned int w;
	uint64_t t0, t1;
	cpu_set_t set;
	pid_t pid;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		bench_fail(NAME, "sched_setaffinity");
	if (pipe(to_child) || pipe(to_parent))
		bench_fail(NAME, "pipe");

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
	if (waitpid(pid, &status, 0) != pid)
		bench_fail(NAME, "wait4");
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		errno = ECHILD;
		bench_fail(NAME, "child_failed");
	}
	printf("bench: %s iters=%lu total=%llu per=%llu cpu=%lu schedstats=%d\n",
	       NAME, loops, (unsigned long long)(t1 - t0),
	       (unsigned long long)((t1 - t0) / loops), cpu,
	       bench_schedstats_read());
	return 0;
}
