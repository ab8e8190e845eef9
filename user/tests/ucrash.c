// SPDX-License-Identifier: GPL-2.0
/*
 * Programs that die: argv[1] says how. The kernel must kill them with
 * Linux's signal and go on. "forkbomb" forks until fork fails and exits
 * 0 if it failed with EAGAIN.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int forkbomb(void)
{
	int p[2], n = 0, err = 0;
	char c;

	if (pipe(p))
		return 2;
	for (;;) {
		pid_t pid = fork();

		if (pid == 0) {
			close(p[1]);
			read(p[0], &c, 1); /* until the parent closes */
			_exit(0);
		}
		if (pid < 0) {
			err = errno;
			break;
		}
		n++;
	}
	close(p[1]);
	while (wait(NULL) > 0)
		;
	return n > 0 && err == EAGAIN ? 0 : 1;
}

int main(int argc, char **argv)
{
	volatile int zero = 0;
	const char *how = argc > 1 ? argv[1] : "";

	if (!strcmp(how, "segv"))
		*(volatile int *)0 = 1;
	if (!strcmp(how, "div"))
		return 10 / zero;
	if (!strcmp(how, "priv"))
		asm volatile("cli");
	if (!strcmp(how, "kjump"))
		((void (*)(void))0xffffffff80100000UL)();
	if (!strcmp(how, "kread"))
		return *(volatile int *)0xffffffff80100000UL;
	if (!strcmp(how, "int3"))
		asm volatile("int3");
	if (!strcmp(how, "hlt"))
		asm volatile("hlt");
	if (!strcmp(how, "abort"))
		abort(); /* glibc: tgkill(SIGABRT) */
	if (!strcmp(how, "forkbomb"))
		return forkbomb();
	return 100;
}
