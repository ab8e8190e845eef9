// SPDX-License-Identifier: GPL-2.0
/*
 * Programs that die: argv[1] says how. The kernel must kill them with
 * Linux's signal and go on. "forkbomb" forks until fork fails and exits
 * 0 if it failed with EAGAIN; "segv_handled" takes 2,000 faults it
 * handles, "segv_many" has 20 children die of one (the kernel's log of
 * them: none, then rate-limited).
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
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

static sigjmp_buf segv_jump;
static volatile int *volatile bad_ptr = (int *)8;

static void on_segv(int sig)
{
	siglongjmp(segv_jump, 1);
}

/* n faults, each caught and left with siglongjmp: exit 0 if all were. */
static int segv_handled(int n)
{
	volatile int caught = 0, i;

	signal(SIGSEGV, on_segv);
	for (i = 0; i < n; i++) {
		if (!sigsetjmp(segv_jump, 1))
			*bad_ptr = i;
		else
			caught++;
	}
	return caught == n ? 0 : 1;
}

/* n children die of a fault no one handles: exit 0 if all did. */
static int segv_many(int n)
{
	int i, st, ok = 0;

	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid == 0)
			*bad_ptr = i;
		if (pid > 0 && waitpid(pid, &st, 0) == pid &&
		    WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV)
			ok++;
	}
	return ok == n ? 0 : 1;
}

/* An unmasked x87 divide by zero, raised at the fwait: #MF. */
static void x87_fault(void)
{
	unsigned short cw = 0x037b; /* ZM (bit 2) unmasked */

	asm volatile("fldcw %0\n\tfld1\n\tfldz\n\tfdivrp\n\tfwait"
		     :
		     : "m"(cw)
		     : "memory", "st", "st(1)");
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
	if (!strcmp(how, "segv_handled"))
		return segv_handled(2000);
	if (!strcmp(how, "segv_many"))
		return segv_many(20);
	if (!strcmp(how, "x87"))
		x87_fault();
	return 100;
}
