/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the user-space benchmark programs (user/bench/): the clock and
 * the result lines.
 *
 * The clock is rdtsc. Under QEMU with -icount shift=0 it counts executed
 * instructions (of the whole machine: the kernel's work for a system call
 * is in the figure), so the figures are instruction counts there and
 * cycles on hardware.
 *
 * Every result is one line on stdout, parsed by scripts/bench_linux.py:
 *
 *     bench: <name> key=value key=value ...
 *
 * and a failure is one line "bench: <name> error=<word> errno=<n>" with a
 * non-zero exit status. Values are integers; "per" is total / iterations,
 * rounded down, the exact figure being total and iters.
 */
#ifndef USER_BENCH_H
#define USER_BENCH_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <fcntl.h>
#include <unistd.h>

#define BENCH_SCHEDSTATS "/proc/sys/kernel/sched_schedstats"

static inline uint64_t bench_tsc(void)
{
	uint32_t lo, hi;

	/* Not serialising: under -icount the count is exact anyway. */
	asm volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}

/* "bench: NAME error=WHAT errno=N" and exit(1). */
static inline void bench_fail(const char *name, const char *what)
{
	int err = errno;

	printf("bench: %s error=%s errno=%d\n", name, what, err);
	fflush(stdout);
	exit(1);
}

/* A decimal argument, or the default when absent; exits on a bad one. */
static inline unsigned long bench_arg(int argc, char **argv, int i,
				      unsigned long def, const char *name)
{
	char *end;
	unsigned long v;

	if (argc <= i)
		return def;
	errno = 0;
	v = strtoul(argv[i], &end, 10);
	if (errno || end == argv[i] || *end || v == 0) {
		errno = EINVAL;
		bench_fail(name, "bad_argument");
	}
	return v;
}

/*
 * The current value of /proc/sys/kernel/sched_schedstats as 0 or 1, or -1
 * when it cannot be read (no /proc, or no such file).
 */
static inline int bench_schedstats_read(void)
{
	char c = 0;
	int fd = open(BENCH_SCHEDSTATS, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, &c, 1);
	close(fd);
	if (n != 1 || (c != '0' && c != '1'))
		return -1;
	return c - '0';
}

/* Writes '0' or '1' to it: 0 on success, -1 with errno set. */
static inline int bench_schedstats_write(int on)
{
	char c = on ? '1' : '0';
	int fd = open(BENCH_SCHEDSTATS, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, &c, 1);
	close(fd);
	return n == 1 ? 0 : -1;
}

#endif
