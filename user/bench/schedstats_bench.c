// SPDX-License-Identifier: GPL-2.0
/*
 * schedstats_bench [FLIPS]: the cost of flipping the sched_schedstats
 * static key from user space, through /proc/sys/kernel/sched_schedstats.
 * FLIPS times (default 10): write "1" (the key's enable: every site of the
 * key patched), then "0" (disable), each write(2) timed alone; and as
 * often, a write of the value already set (the same path without a
 * flip). The file position is reset with lseek before each write. The
 * value found at the start is restored. Prints
 *
 *     bench: schedstats_flip iters=FLIPS on=A off=B noop=C on_min=D \
 *            off_min=E initial=V
 *
 * A, B, C are means over the FLIPS writes, D and E the smallest.
 */
#include <string.h>

#include "bench.h"

#define NAME "schedstats_flip"

static uint64_t timed_write(int fd, char c)
{
	uint64_t t0, t1;
	ssize_t n;

	if (lseek(fd, 0, SEEK_SET) != 0)
		bench_fail(NAME, "lseek");
	t0 = bench_tsc();
	n = write(fd, &c, 1);
	t1 = bench_tsc();
	if (n != 1)
		bench_fail(NAME, "write");
	return t1 - t0;
}

static uint64_t min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

int main(int argc, char **argv)
{
	unsigned long flips = bench_arg(argc, argv, 1, 10, NAME);
	uint64_t on = 0, off = 0, noop = 0, t;
	uint64_t on_min = UINT64_MAX, off_min = UINT64_MAX;
	int initial = bench_schedstats_read();
	unsigned long i;
	int fd;

	if (initial < 0) {
		errno = ENOENT;
		bench_fail(NAME, "no_" BENCH_SCHEDSTATS);
	}
	fd = open(BENCH_SCHEDSTATS, O_RDWR);
	if (fd < 0)
		bench_fail(NAME, "open");
	if (initial)
		timed_write(fd, '0');

	for (i = 0; i < flips; i++) {
		t = timed_write(fd, '1');
		on += t;
		on_min = min64(on_min, t);
		if (bench_schedstats_read() != 1) {
			errno = EIO;
			bench_fail(NAME, "not_enabled");
		}
		noop += timed_write(fd, '1');
		t = timed_write(fd, '0');
		off += t;
		off_min = min64(off_min, t);
		if (bench_schedstats_read() != 0) {
			errno = EIO;
			bench_fail(NAME, "not_disabled");
		}
	}
	if (initial)
		timed_write(fd, '1');
	close(fd);

	printf("bench: %s iters=%lu on=%llu off=%llu noop=%llu on_min=%llu off_min=%llu initial=%d\n",
	       NAME, flips, (unsigned long long)(on / flips),
	       (unsigned long long)(off / flips),
	       (unsigned long long)(noop / flips), (unsigned long long)on_min,
	       (unsigned long long)off_min, initial);
	return 0;
}
