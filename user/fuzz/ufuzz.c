// SPDX-License-Identifier: GPL-2.0
/*
 * ufuzz: the system-call surface under random calls (trinity's idea),
 * arguments chosen per type: fds (open ones, closed ones, huge ones),
 * addresses this process owns (at page edges too), kernel addresses (given
 * on the command line: text, data, a static key, the direct map), non-
 * canonical ones, lengths at the edges, signals, pids (its own only).
 *
 *   ufuzz fuzz SEED CALLS KADDR...   CALLS random calls from SEED
 *   ufuzz walk KADDR...              every call that takes a pointer,
 *                                    each pointer a kernel address
 *
 * fuzz: workers (forked, fds 0-2 on a pipe so that nothing reaches the
 * console) make the calls; one that dies (a fault, a random exit, a
 * random rt_sigreturn) is replaced, one that takes too long is killed.
 * Then the health check: fork, exec of /bin/hello, a pipe round trip.
 * Exit 0 if it passed. walk: exit 0 if no call succeeded with a kernel
 * address where the kernel would have read or written through it.
 * Prints "ufuzz: ..." lines (the worker count, calls made, signals).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Argument types. */
enum {
	A_NONE,
	A_FD,
	A_BUF, /* a pointer to bytes the call reads or writes */
	A_LEN,
	A_STR, /* a pointer to a string */
	A_ADDR, /* a page address (mmap and friends) */
	A_INT, /* flags, options, modes */
	A_PID,
	A_SIG,
	A_CLOCK,
	A_ARGV, /* a pointer to a NULL-terminated array of strings */
};

struct call {
	int nr;
	const char *name;
	unsigned char arg[6];
};

#define C(n, ...)                   \
	{                           \
		SYS_##n, #n,        \
		{                   \
			__VA_ARGS__ \
		}                   \
	}

/* Every call of the kernel's table (kernel/sys.c) but reboot. */
static const struct call calls[] = {
	C(read, A_FD, A_BUF, A_LEN),
	C(write, A_FD, A_BUF, A_LEN),
	C(close, A_FD),
	C(fstat, A_FD, A_BUF),
	C(lseek, A_FD, A_LEN, A_INT),
	C(mmap, A_ADDR, A_LEN, A_INT, A_INT, A_FD, A_LEN),
	C(mprotect, A_ADDR, A_LEN, A_INT),
	C(munmap, A_ADDR, A_LEN),
	C(brk, A_ADDR),
	C(rt_sigaction, A_SIG, A_BUF, A_BUF, A_LEN),
	C(rt_sigprocmask, A_INT, A_BUF, A_BUF, A_LEN),
	C(rt_sigreturn),
	C(ioctl, A_FD, A_INT, A_BUF),
	C(writev, A_FD, A_BUF, A_LEN),
	C(pipe, A_BUF),
	C(sched_yield),
	C(dup, A_FD),
	C(dup2, A_FD, A_FD),
	C(nanosleep, A_BUF, A_BUF),
	C(getpid),
	C(clone, A_INT, A_ADDR, A_BUF, A_BUF, A_LEN),
	C(fork),
	C(vfork),
	C(execve, A_STR, A_ARGV, A_ARGV),
	C(exit_group, A_INT),
	C(wait4, A_PID, A_BUF, A_INT, A_BUF),
	C(kill, A_PID, A_SIG),
	C(uname, A_BUF),
	C(getcwd, A_BUF, A_LEN),
	C(mkdir, A_STR, A_INT),
	C(umask, A_INT),
	C(gettimeofday, A_BUF, A_BUF),
	C(getuid),
	C(getgid),
	C(geteuid),
	C(getegid),
	C(getppid),
	C(arch_prctl, A_INT, A_BUF),
	C(rt_sigpending, A_BUF, A_LEN),
	C(mount, A_STR, A_STR, A_STR, A_INT, A_BUF),
	C(gettid),
	C(tkill, A_PID, A_SIG),
	C(time, A_BUF),
	C(sched_setaffinity, A_PID, A_LEN, A_BUF),
	C(sched_getaffinity, A_PID, A_LEN, A_BUF),
	C(set_tid_address, A_BUF),
	C(clock_gettime, A_CLOCK, A_BUF),
	C(clock_getres, A_CLOCK, A_BUF),
	C(clock_nanosleep, A_CLOCK, A_INT, A_BUF, A_BUF),
	C(exit_group, A_INT),
	C(tgkill, A_PID, A_PID, A_SIG),
	C(openat, A_FD, A_STR, A_INT, A_INT),
	C(mkdirat, A_FD, A_STR, A_INT),
	C(newfstatat, A_FD, A_STR, A_BUF, A_INT),
	C(set_robust_list, A_BUF, A_LEN),
	C(dup3, A_FD, A_FD, A_INT),
	C(pipe2, A_BUF, A_INT),
	C(prlimit64, A_PID, A_INT, A_BUF, A_BUF),
	C(getrandom, A_BUF, A_LEN, A_INT),
	C(rseq, A_BUF, A_LEN, A_INT, A_INT),
};
#define NR_CALLS (sizeof(calls) / sizeof(calls[0]))

static unsigned long kaddrs[8];
static unsigned int nr_kaddrs;
static uint64_t rng;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static unsigned long pick(const unsigned long *v, unsigned int n)
{
	return v[rnd() % n];
}

/* What a worker owns: a buffer, strings, a page at the edge of nothing. */
static unsigned char *area; /* 64 KiB + an unmapped page after it */
#define AREA_SIZE 65536UL

static unsigned long a_ptr(void)
{
	static const unsigned long odd[] = {
		0,
		8,
		4096,
		0x7ffffffff000UL - 8,
		0x7ffffffff000UL,
		0x800000000000UL,
		0xffff7fffffffffffUL,
		0xffff800000000000UL,
		~0UL,
		~0UL - 7,
	};

	switch (rnd() % 8) {
	case 0:
	case 1:
	case 2:
		return (unsigned long)area + rnd() % AREA_SIZE;
	case 3: /* the last bytes before the unmapped page */
		return (unsigned long)area + AREA_SIZE - rnd() % 64;
	case 4:
	case 5:
		if (nr_kaddrs)
			return pick(kaddrs, nr_kaddrs) + rnd() % 64;
		/* fall through */
	case 6:
		return pick(odd, sizeof(odd) / sizeof(odd[0]));
	}
	return rnd();
}

static unsigned long a_len(void)
{
	static const unsigned long edge[] = {
		0,
		1,
		7,
		8,
		16,
		64,
		4095,
		4096,
		4097,
		65536,
		0x7fffffffUL,
		0x80000000UL,
		0xffffffffUL,
		1UL << 47,
		1UL << 63,
		~0UL,
		~0UL - 4095,
	};

	if (rnd() % 3)
		return rnd() % 4097;
	return pick(edge, sizeof(edge) / sizeof(edge[0]));
}

static unsigned long a_str(void)
{
	static const char *const names[] = {
		"/proc/sys/kernel/sched_schedstats",
		"/proc",
		"proc",
		"/",
		"/bin/hello",
		"",
		"/no/such",
		"/proc/sys/kernel",
	};
	char *s;

	if (rnd() % 2)
		return a_ptr();
	/* A name copied into the area, maybe right at its end, unterminated. */
	s = (char *)area + rnd() % (AREA_SIZE - 64);
	if (rnd() % 4 == 0) {
		size_t n = rnd() % 40;

		s = (char *)area + AREA_SIZE - n;
		memset(s, 'a' + rnd() % 26, n);
		return (unsigned long)s;
	}
	strcpy(s, names[rnd() % (sizeof(names) / sizeof(names[0]))]);
	return (unsigned long)s;
}

static unsigned long a_argv(void)
{
	unsigned long *v = (unsigned long *)(area + (rnd() % 1024) * 8);
	unsigned int i, n = rnd() % 5;

	if (rnd() % 3 == 0)
		return a_ptr();
	for (i = 0; i < n; i++)
		v[i] = a_str();
	v[n] = rnd() % 8 ? 0 : a_ptr(); /* sometimes no NULL where due */
	return (unsigned long)v;
}

static unsigned long arg_of(int type, int self)
{
	unsigned long i;

	switch (type) {
	case A_FD:
		switch (rnd() % 6) {
		case 0:
			return -1UL;
		case 1:
			return 0x100000000UL | (rnd() % 8);
		case 2:
			return rnd() % 70;
		default:
			return rnd() % 8;
		}
	case A_BUF:
		return a_ptr();
	case A_LEN:
		return a_len();
	case A_STR:
		return a_str();
	case A_ARGV:
		return a_argv();
	case A_ADDR:
		switch (rnd() % 4) {
		case 0:
			return ((unsigned long)area + rnd() % AREA_SIZE) &
			       ~4095UL;
		case 1:
			return (rnd() % (1UL << 47)) & ~4095UL;
		case 2:
			return a_ptr() & ~4095UL;
		}
		return rnd() % 2 ? 0 : a_ptr();
	case A_PID: /* never another process: the supervisor must live */
		switch (rnd() % 4) {
		case 0:
			return 0;
		case 1:
			return -1UL;
		case 2:
			return 0x7fffff00 + rnd() % 256;
		}
		return self;
	case A_SIG: /* SIGKILL and SIGSTOP (which kills here) seldom */
		i = rnd() % 70;
		return (i == SIGKILL || i == SIGSTOP) && rnd() % 16 ? 0 : i;
	case A_CLOCK:
		return rnd() % 14;
	case A_INT:
		if (rnd() % 2)
			return rnd() % 16;
		return rnd() % 2 ? (unsigned int)rnd() : rnd();
	}
	return rnd();
}

/* One random call from the table (or a random number, now and then). */
static void one_call(int self)
{
	const struct call *c = &calls[rnd() % NR_CALLS];
	unsigned long a[6];
	long nr, r;
	int i;

	for (i = 0; i < 6; i++)
		a[i] = arg_of(c->arg[i], self);
	nr = c->nr;
	if (rnd() % 50 == 0)
		nr = rnd() % 2 ? (long)(rnd() % 600) : (long)rnd();
	if (nr == SYS_reboot || (unsigned int)nr == SYS_reboot)
		return;
	/* The calls that end a worker: rarely, and never with status 0. */
	if ((nr == SYS_exit_group || nr == SYS_exit) && rnd() % 32)
		return;
	if (nr == SYS_exit_group || nr == SYS_exit)
		a[0] = 1 + rnd() % 200;
	if (nr == SYS_rt_sigreturn && rnd() % 8)
		return;
	/* A sleep is short: the worker's time is counted. */
	if (c->nr == SYS_nanosleep || c->nr == SYS_clock_nanosleep) {
		struct timespec *ts = (struct timespec *)area;

		ts->tv_sec = 0;
		ts->tv_nsec = rnd() % 2000000;
		if (rnd() % 2)
			a[c->nr == SYS_nanosleep ? 0 : 2] = (unsigned long)ts;
	}
	r = syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	/* A child of fork, vfork or clone leaves at once (a thread alone). */
	if (r == 0 && (nr == SYS_fork || nr == SYS_vfork || nr == SYS_clone)) {
		if (getpid() != self)
			_exit(0);
		if (syscall(SYS_gettid) != self)
			syscall(SYS_exit, 0);
	}
}

static void worker(uint64_t seed, long n)
{
	int p[2], fd, self = getpid();
	long i;

	rng = seed * 0x9e3779b97f4a7c15ULL + 1;
	/* Nothing a call writes may reach the console. */
	if (pipe(p) == 0) {
		for (fd = 0; fd < 3; fd++)
			dup2(p[fd & 1], fd);
	}
	/* A signal it sends itself is ignored (unless a call changes that). */
	for (fd = 1; fd < 65; fd++)
		if (fd != SIGKILL && fd != SIGSTOP)
			signal(fd, SIG_IGN);
	area = mmap(NULL, AREA_SIZE + 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED)
		_exit(2);
	munmap(area + AREA_SIZE, 4096);
	for (i = 0; i < n; i++) {
		one_call(self);
		if (i % 64 == 0)
			while (waitpid(-1, NULL, WNOHANG) > 0)
				;
	}
	_exit(0);
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Runs a worker of n calls; kills it after budget ms. Its wait status. */
static int run_worker(uint64_t seed, long n, long budget)
{
	long start = now_ms();
	int st = 0;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0)
		worker(seed, n);
	for (;;) {
		pid_t w = waitpid(pid, &st, WNOHANG);
		struct timespec ts = { 0, 5000000 };

		if (w == pid)
			return st;
		if (w < 0)
			return -1;
		if (now_ms() - start > budget)
			kill(pid, SIGKILL);
		nanosleep(&ts, NULL);
	}
}

/* fork, exec, pipe: the kernel still does its job. */
static int health(void)
{
	char c = 0;
	int p[2], st = 0;
	pid_t pid;

	if (pipe(p) || write(p[1], "k", 1) != 1 || read(p[0], &c, 1) != 1 ||
	    c != 'k')
		return 1;
	close(p[0]);
	close(p[1]);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		execve("/bin/hello", (char *[]){ "hello", "x", NULL },
		       (char *[]){ NULL });
		_exit(99);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return 2;
	/* hello exits 3 (its own test of the arguments). */
	return WIFEXITED(st) && WEXITSTATUS(st) == 3 ? 0 : 3;
}

/*
 * A worker's 200 calls take some 80 ms (QEMU's TCG, a quiet host), five
 * times that on a loaded one; a worker still there after this is blocked
 * in a call (most seeds have one) and is killed.
 */
#define WORKER_BUDGET_MS 600

static int fuzz(uint64_t seed, long total)
{
	long done = 0, per = 200;
	unsigned int workers = 0, signaled = 0, killed = 0, early = 0;
	int st, h;

	while (done < total) {
		long n = total - done < per ? total - done : per;

		st = run_worker(seed + workers, n, WORKER_BUDGET_MS);
		workers++;
		done += n;
		if (st < 0)
			break;
		if (WIFSIGNALED(st)) {
			signaled++;
			killed += WTERMSIG(st) == SIGKILL;
		} else if (WEXITSTATUS(st)) {
			early++; /* exit_group, or an execve */
		}
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
	}
	/* Put back what a worker may have flipped. */
	{
		int fd = open("/proc/sys/kernel/sched_schedstats", O_WRONLY);

		if (fd >= 0) {
			if (write(fd, "0", 1) != 1)
				printf("ufuzz: schedstats not reset\n");
			close(fd);
		}
	}
	h = health();
	printf("ufuzz: seed %llu: %ld calls asked of %u workers, %u ended by a signal "
	       "(%u over time), %u by an exit, health %s\n",
	       (unsigned long long)seed, done, workers, signaled, killed, early,
	       h ? "FAILED" : "ok");
	return h;
}

/*
 * Every call that takes a pointer, each pointer in turn a kernel
 * address (the others harmless): none may succeed by reading or writing
 * through it. The calls that may succeed without using the pointer (its
 * other arguments make it unused) are not counted.
 */
static int walk(void)
{
	unsigned int i, j, k, bad = 0, tried = 0;
	int p[2], self = getpid();

	if (pipe(p))
		return 1;
	for (i = 0; i < NR_CALLS; i++) {
		const struct call *c = &calls[i];

		if (c->nr == SYS_exit_group || c->nr == SYS_execve ||
		    c->nr == SYS_rt_sigreturn || c->nr == SYS_clone ||
		    c->nr == SYS_set_tid_address || c->nr == SYS_brk ||
		    c->nr == SYS_set_robust_list || c->nr == SYS_rseq)
			continue;
		for (j = 0; j < 6; j++) {
			if (c->arg[j] != A_BUF && c->arg[j] != A_STR)
				continue;
			for (k = 0; k < nr_kaddrs; k++) {
				unsigned long a[6] = { 0 };
				unsigned int m;
				long r;

				for (m = 0; m < 6; m++) {
					if (c->arg[m] == A_FD)
						a[m] = p[c->nr == SYS_read ? 0 :
									     1];
					else if (c->arg[m] == A_LEN)
						a[m] = 64;
					else if (c->arg[m] == A_PID)
						a[m] = self;
					else if (c->arg[m] == A_CLOCK)
						a[m] = CLOCK_MONOTONIC;
				}
				if (c->nr == SYS_rt_sigaction ||
				    c->nr == SYS_rt_sigprocmask ||
				    c->nr == SYS_rt_sigpending)
					a[3] = 8,
					a[1] = c->nr == SYS_rt_sigpending ?
						       8 :
						       a[1];
				if (c->nr == SYS_rt_sigaction)
					a[0] = SIGUSR1;
				if (c->nr == SYS_arch_prctl)
					a[0] = 0x1003; /* ARCH_GET_FS */
				if (c->nr == SYS_pipe || c->nr == SYS_pipe2)
					a[1] = 0;
				if (c->nr == SYS_read || c->nr == SYS_write)
					write(p[1], "0123456789abcdef", 16);
				a[j] = kaddrs[k];
				r = syscall(c->nr, a[0], a[1], a[2], a[3], a[4],
					    a[5]);
				tried++;
				if (r >= 0 && c->nr != SYS_wait4) {
					printf("ufuzz: walk: %s arg %u = %#lx: %ld\n",
					       c->name, j, kaddrs[k], r);
					bad++;
				}
			}
		}
	}
	printf("ufuzz: walk: %u calls with a kernel pointer, %u succeeded\n",
	       tried, bad);
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	int i, first;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2)
		return 2;
	first = !strcmp(argv[1], "fuzz") ? 4 : 2;
	for (i = first; i < argc && nr_kaddrs < 8; i++)
		kaddrs[nr_kaddrs++] = strtoul(argv[i], NULL, 0);
	if (!strcmp(argv[1], "walk"))
		return walk();
	if (!strcmp(argv[1], "fuzz") && argc >= 4)
		return fuzz(strtoull(argv[2], NULL, 0),
			    strtol(argv[3], NULL, 0));
	return 2;
}
