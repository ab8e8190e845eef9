// SPDX-License-Identifier: GPL-2.0
/*
 * uspin [EVERY [SLEEP_EVERY]]: runs in user mode until killed, for the
 * patch engine's benchmark and stress (CPUs that are in user mode, or
 * that come and go). EVERY (default 0: never) > 0 makes a getppid()
 * system call every EVERY turns of its loop; SLEEP_EVERY (default 0) > 0
 * also sleeps 1 ms every SLEEP_EVERY system calls, its CPU idle
 * meanwhile. Without system calls it only leaves user mode when
 * interrupted: a SIGKILL takes effect at its next interrupt.
 */
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	unsigned long every = argc > 1 ? strtoul(argv[1], NULL, 0) : 0;
	unsigned long sleep_every = argc > 2 ? strtoul(argv[2], NULL, 0) : 0;
	struct timespec ms = { 0, 1000000 };
	unsigned long turn = 0, calls = 0;

	for (;;) {
		__asm__ volatile("pause" ::: "memory");
		if (!every || ++turn < every)
			continue;
		turn = 0;
		getppid();
		if (sleep_every && ++calls % sleep_every == 0)
			nanosleep(&ms, NULL);
	}
}
