// SPDX-License-Identifier: GPL-2.0
/*
 * futex_bench [LOOPS [CPU_A CPU_B]]: a waiting thread woken, round trip.
 * Two threads of one process, the main one pinned to CPU_A, the other to
 * CPU_B (default 0 and 0), pass a turn back and forth through one futex
 * word: each sets it, FUTEX_WAKEs the other and FUTEX_WAITs until it is
 * its turn again. LOOPS round trips (default 10000) after 100 untimed.
 * Prints
 *
 *     bench: futex_roundtrip iters=LOOPS total=T per=T/LOOPS cpus=A,B
 *
 * A round trip is two wake-ups of a waiting thread (four system calls);
 * with A != B each one crosses CPUs (an IPI to a halted CPU).
 */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <sys/syscall.h>

#include "bench.h"

#define NAME "futex_roundtrip"
#define WARMUP 100

static atomic_uint turn; /* 0: the main thread's, 1: the other's */
static unsigned long total_loops;
static long cpu_b;

static void pin(long cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		bench_fail(NAME, "sched_setaffinity");
}

/* Waits while turn is not mine, then hands it over and wakes the other. */
static void take_and_pass(unsigned int mine)
{
	unsigned int t;

	while ((t = atomic_load(&turn)) != mine)
		if (syscall(SYS_futex, &turn, FUTEX_WAIT_PRIVATE, t, NULL, NULL,
			    0) &&
		    errno != EAGAIN && errno != EINTR)
			bench_fail(NAME, "futex_wait");
	atomic_store(&turn, !mine);
	if (syscall(SYS_futex, &turn, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0) < 0)
		bench_fail(NAME, "futex_wake");
}

static void *other(void *arg)
{
	pin(cpu_b);
	for (unsigned long i = 0; i < total_loops; i++)
		take_and_pass(1);
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned long loops = bench_arg(argc, argv, 1, 10000, NAME), i;
	long cpu_a = argc > 2 ? strtol(argv[2], NULL, 10) : 0;
	pthread_t t;
	uint64_t t0, t1;

	cpu_b = argc > 3 ? strtol(argv[3], NULL, 10) : 0;
	total_loops = loops + WARMUP;
	pin(cpu_a);
	atomic_store(&turn, 0);
	if (pthread_create(&t, NULL, other, NULL))
		bench_fail(NAME, "pthread_create");
	for (i = 0; i < WARMUP; i++)
		take_and_pass(0);
	t0 = bench_tsc();
	for (i = 0; i < loops; i++)
		take_and_pass(0);
	t1 = bench_tsc();
	if (pthread_join(t, NULL))
		bench_fail(NAME, "pthread_join");
	printf("bench: %s iters=%lu total=%llu per=%llu cpus=%ld,%ld\n", NAME,
	       loops, (unsigned long long)(t1 - t0),
	       (unsigned long long)((t1 - t0) / loops), cpu_a, cpu_b);
	return 0;
}
