// SPDX-License-Identifier: GPL-2.0
/*
 * benchinit [/DIR]: a first process (pid 1) that runs the benchmark programs
 * of /DIR (default /bin; an argument not starting with '/' is ignored) one
 * after the other and powers the machine off: the same /init for Linux's
 * initramfs and for this kernel.
 *
 *     bench: boot tsc=T                 rdtsc at this program's first
 *                                       instruction (its ELF entry point)
 *     ...                               getppid_bench, pipe_bench,
 *                                       schedstats_bench, pipe_bench of two
 *                                       threads, futex_bench, pipe_bench
 *                                       again with schedstats on; with the
 *                                       argument "smp" instead: run_smp()
 *     bench: jl <module's lines>        when /bench_jl.ko exists: loaded
 *                                       (finit_module), its /proc/bench_jl
 *                                       copied out (Linux only)
 *     bench: kallsyms name=S addr=A  from /proc/kallsyms (Linux only): the
 *                                       addresses of the symbols that
 *                                       locate sched_schedstats' sites
 *     bench: done failed=N              the last line: N programs failed
 *
 * Environment (Linux passes unknown "a=b" kernel parameters to init):
 * bench_loops=N scales the programs' loop counts (default 1: 10000 round
 * trips, 100000 getppid calls, 10 flips each way). bench_mode=stress loads
 * /bench_jl_stress.ko instead (with flips=bench_flips when set) and copies
 * /proc/bench_jl_stress.
 *
 * As pid 1 it mounts /proc first; when not pid 1 it exits instead of
 * powering off.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "bench.h"

#define NAME "benchinit"

/* Filled at the ELF entry (benchinit_entry, user/Makefile's -e). */
uint64_t benchinit_first_tsc;

asm(".pushsection .text\n"
    ".globl benchinit_entry\n"
    "benchinit_entry:\n"
    "	mov %rdx, %rcx\n" /* rdtsc clobbers rdx: _start's rtld_fini */
    "	rdtsc\n"
    "	mov %eax, benchinit_first_tsc(%rip)\n"
    "	mov %edx, benchinit_first_tsc+4(%rip)\n"
    "	mov %rcx, %rdx\n"
    "	jmp _start\n"
    ".popsection\n");

static unsigned long scale = 1;

/*
 * Runs DIR/PROG with a numeric argument (scaled) and up to two more (a, b
 * or NULL); 0 if it exited with 0.
 */
static int run_args(const char *dir, const char *prog, unsigned long arg,
		    const char *a, const char *b)
{
	char path[256], num[32];
	char *argv[5] = { path, num, (char *)a, a ? (char *)b : NULL, NULL };
	char *envp[] = { NULL };
	int status;
	pid_t pid;

	snprintf(path, sizeof(path), "%s/%s", dir, prog);
	snprintf(num, sizeof(num), "%lu", arg * scale);
	fflush(stdout);
	pid = syscall(SYS_fork);
	if (pid < 0) {
		printf("bench: %s error=fork errno=%d\n", prog, errno);
		return -1;
	}
	if (pid == 0) {
		execve(path, argv, envp);
		printf("bench: %s error=execve errno=%d\n", prog, errno);
		fflush(stdout);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid) {
		printf("bench: %s error=wait4 errno=%d\n", prog, errno);
		return -1;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	printf("bench: %s error=status status=%d\n", prog, status);
	return -1;
}

static int run(const char *dir, const char *prog, unsigned long arg)
{
	return run_args(dir, prog, arg, NULL, NULL);
}

/*
 * "smp" (an argument: init_args here, a bare word of Linux's command
 * line): the benchmarks of a machine with more CPUs, unpinned or on two
 * CPUs: the pipe round trip of processes and of threads placed by the
 * scheduler, a futex wake-up across CPUs.
 */
static int run_smp(const char *dir)
{
	int failed = 0;

	failed += run_args(dir, "pipe_bench", 10000, "any", NULL) < 0;
	failed += run_args(dir, "pipe_bench", 10000, "any", "threads") < 0;
	failed += run_args(dir, "futex_bench", 10000, "0", "1") < 0;
	return failed;
}

/*
 * Loads MOD (finit_module, with PARAMS) and copies PROC, line by line, as
 * "bench: jl ...". 1 if there is no such module, 0 on success.
 */
static int load_and_copy(const char *mod, const char *params, const char *proc)
{
	char buf[4096], *line, *save;
	int fd = open(mod, O_RDONLY);
	ssize_t n, len = 0;

	if (fd < 0)
		return 1;
	if (syscall(SYS_finit_module, fd, params, 0)) {
		printf("bench: jl error=finit_module errno=%d\n", errno);
		close(fd);
		return -1;
	}
	close(fd);
	fd = open(proc, O_RDONLY);
	if (fd < 0) {
		printf("bench: jl error=open_proc errno=%d\n", errno);
		return -1;
	}
	while (len < (ssize_t)sizeof(buf) - 1 &&
	       (n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = 0;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		printf("bench: jl %s\n", line);
	return 0;
}

/* The symbols of Linux that scripts/bench_linux.py needs to count sites. */
static const char *const wanted_syms[] = { "_text", "__start___jump_table",
					   "__stop___jump_table",
					   "sched_schedstats" };

static void kallsyms_line(char *line)
{
	char *addr = strtok(line, " "), *type = strtok(NULL, " ");
	char *sym = strtok(NULL, " \t");
	unsigned int i;

	if (!addr || !type || !sym)
		return;
	for (i = 0; i < sizeof(wanted_syms) / sizeof(wanted_syms[0]); i++)
		if (!strcmp(sym, wanted_syms[i]))
			printf("bench: kallsyms name=%s addr=%s\n", sym, addr);
}

/*
 * "bench: kallsyms name=SYM addr=HEX" for wanted_syms, from
 * /proc/kallsyms when there is one (Linux).
 */
static void print_kallsyms(void)
{
	static char buf[65536];
	size_t len = 0;
	char *nl, *start;
	ssize_t n;
	int fd = open("/proc/kallsyms", O_RDONLY);

	if (fd < 0)
		return;
	while ((n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0) {
		len += n;
		buf[len] = 0;
		start = buf;
		while ((nl = strchr(start, '\n'))) {
			*nl = 0;
			kallsyms_line(start);
			start = nl + 1;
		}
		len -= start - buf;
		memmove(buf, start, len);
		if (len == sizeof(buf) - 1)
			len = 0; /* a line too long for the buffer */
	}
	close(fd);
}

int main(int argc, char **argv)
{
	/* Linux passes unknown kernel parameters ("nokaslr") as arguments. */
	const char *dir = argc > 1 && argv[1][0] == '/' ? argv[1] : "/bin";
	bool smp = false;
	const char *mode = getenv("bench_mode");
	const char *loops = getenv("bench_loops");
	int failed = 0;

	printf("bench: boot tsc=%llu\n",
	       (unsigned long long)benchinit_first_tsc);
	if (loops && strtoul(loops, NULL, 10) > 0)
		scale = strtoul(loops, NULL, 10);
	if (getpid() == 1 && mount("proc", "/proc", "proc", 0, NULL) &&
	    errno != EBUSY)
		printf("bench: %s error=mount_proc errno=%d\n", NAME, errno);

	for (int i = 1; i < argc; i++)
		smp |= !strcmp(argv[i], "smp");
	if (smp) {
		failed += run_smp(dir);
		goto out;
	}
	if (mode && !strcmp(mode, "stress")) {
		char params[64] = "";

		if (getenv("bench_flips"))
			snprintf(params, sizeof(params), "flips=%s",
				 getenv("bench_flips"));
		failed += load_and_copy("/bench_jl_stress.ko", params,
					"/proc/bench_jl_stress") < 0;
		goto out;
	}

	failed += run(dir, "getppid_bench", 100000) < 0;
	failed += run(dir, "pipe_bench", 10000) < 0;
	failed += run(dir, "schedstats_bench", 10) < 0;
	failed += run_args(dir, "pipe_bench", 10000, "0", "threads") < 0;
	failed += run_args(dir, "futex_bench", 10000, "0", "0") < 0;
	if (bench_schedstats_write(1) == 0) {
		failed += run(dir, "pipe_bench", 10000) < 0;
		if (bench_schedstats_write(0))
			failed++;
	} else {
		printf("bench: %s error=schedstats_on errno=%d\n", NAME, errno);
		failed++;
	}
	failed += load_and_copy("/bench_jl.ko", "", "/proc/bench_jl") < 0;
	print_kallsyms();
out:
	printf("bench: done failed=%d\n", failed);
	fflush(stdout);
	if (getpid() != 1)
		return failed ? 1 : 0;
	/* Nothing to sync: an initramfs (Linux), no file system (ours). */
	reboot(RB_POWER_OFF);
	printf("bench: %s error=reboot errno=%d\n", NAME, errno);
	fflush(stdout);
	for (;;)
		pause();
}
