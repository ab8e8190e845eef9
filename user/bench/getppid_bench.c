// SPDX-License-Identifier: GPL-2.0
/*
 * getppid_bench [LOOPS]: the seed's getppid() loop, LOOPS calls (default
 * 100000) after 1000 untimed ones, each a real system call (glibc does not
 * cache getppid). Prints
 *
 *     bench: getppid iters=LOOPS total=T per=T/LOOPS
 *
 * The loop's own instructions (a few) are in the figure, as in the seed's.
 */
#include "bench.h"

#define NAME "getppid"
#define WARMUP 1000

int main(int argc, char **argv)
{
	unsigned long loops = bench_arg(argc, argv, 1, 100000, NAME);
	unsigned long i;
	uint64_t t0, t1;
	pid_t first = getppid();

	for (i = 0; i < WARMUP; i++)
		getppid();
	t0 = bench_tsc();
	for (i = 0; i < loops; i++)
		getppid();
	t1 = bench_tsc();
	if (getppid() != first) {
		errno = ESRCH;
		bench_fail(NAME, "parent_changed");
	}
	printf("bench: %s iters=%lu total=%llu per=%llu\n", NAME, loops,
	       (unsigned long long)(t1 - t0),
	       (unsigned long long)((t1 - t0) / loops));
	return 0;
}
