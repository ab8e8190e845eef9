// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite "userspace": the programs of user/tests/ (gcc -O2 -static,
 * on the ISO as /bin/NAME) run as processes; their exit status says
 * whether the system calls behaved, and a process that ran and exited
 * leaks no frame. Corrupt executables are refused with -ENOEXEC.
 */
#include <linux/kernel.h>
#include <linux/delay.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <linux/process.h>
#include <linux/sched.h>
#include <linux/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/trace.h>
#include <asm/user_pgtable.h>
#include <fixtures/mem_snapshot.h>
#include <kunit/test.h>

static int run(struct kunit *test, const char *path, const char *arg)
{
	const char *argv[] = { path, arg, NULL };
	const char *envp[] = { "HOME=/", NULL };
	struct process *p;
	int ret;

	ret = process_spawn(path, argv, envp, &p);
	KUNIT_ASSERT_EQ(test, ret, 0);
	return process_wait(p);
}

/*
 * wait4 returns once the process has exited, while its last task may
 * still be switching out on another CPU, or be freed there by that CPU's
 * idle reaper: reap, and wait (a second at most) until every task that
 * exited is freed.
 */
static void ust_settle(void)
{
	unsigned int i;

	process_reap_orphans();
	for (i = 0; i < 1000; i++) {
		task_reap_dead();
		if (!nr_tasks_exiting())
			break;
		msleep(1);
	}
}

static void ust_run_hello(struct kunit *test, void *unused)
{
	KUNIT_EXPECT_EQ(test, run(test, "/bin/hello", "x"), 3 << 8);
}

/*
 * Exit status 3 as wait4 encodes it; nothing leaked, and with no process
 * left no frame of a user half (its pages and page tables) is either.
 */
static void ust_hello(struct kunit *test)
{
	KUNIT_ASSERT_NOT_NULL(test, exec_find("/bin/hello"));
	run(test, "/bin/hello", "warm-up");
	kunit_expect_no_leak(test, ust_run_hello, NULL, ust_settle);
	KUNIT_EXPECT_EQ(test, nr_processes(), 0);
	KUNIT_EXPECT_EQ(test, nr_user_frames(), 0UL);
}

static void ust_syscalls(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, run(test, "/bin/ucheck", NULL), 0);
	KUNIT_EXPECT_FALSE(test, schedstat_enabled());
	/* glibc's start-up readlink("/proc/self/exe") is not -ENOSYS. */
	KUNIT_EXPECT_FALSE(test,
			   printk_log_contains(0, "unknown system call 89:"));
	KUNIT_EXPECT_FALSE(test,
			   printk_log_contains(0, "unknown system call 267:"));
}

static void ust_crashes(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, run(test, "/bin/ucrash", "segv"), SIGSEGV);
	KUNIT_EXPECT_EQ(test, run(test, "/bin/ucrash", "div"), SIGFPE);
	KUNIT_EXPECT_EQ(test, run(test, "/bin/ucrash", "priv"), SIGSEGV);
	KUNIT_EXPECT_EQ(test, run(test, "/bin/ucrash", "kjump"), SIGSEGV);
	KUNIT_EXPECT_EQ(test, run(test, "/bin/ucrash", "kread"), SIGSEGV);
	KUNIT_EXPECT_EQ(test, run(test, "/bin/ucrash", "int3"), SIGTRAP);
	KUNIT_EXPECT_EQ(test, run(test, "/bin/ucrash", "hlt"), SIGSEGV);
	KUNIT_EXPECT_EQ(test, run(test, "/bin/ucrash", "abort"), SIGABRT);
	KUNIT_EXPECT_EQ(test, run(test, "/bin/ucrash", "x87"), SIGFPE);
	KUNIT_EXPECT_EQ(test, run(test, "/bin/ucrash", "none"), 100 << 8);
}

/* How many times s is in the kernel's log from pos on. */
static unsigned int log_count(u64 pos, const char *s)
{
	size_t k = strlen(s), have = 0, n;
	unsigned int count = 0;
	char buf[257];
	char *p;

	for (;;) {
		n = printk_log_read(&pos, buf + have, sizeof(buf) - 1 - have);
		if (!n)
			break;
		have += n;
		buf[have] = 0;
		for (p = buf; (p = strstr(p, s)); p += k)
			count++;
		/* Keep a tail that may hold the start of the next match. */
		n = min(have, k - 1);
		memmove(buf, buf + have - n, n);
		have = n;
	}
	return count;
}

/*
 * A fault the program handles prints nothing (2,000 of them: no line);
 * faults that kill are printed, 10 at most in 5 s (Linux's
 * printk_ratelimit()): 20 children, at most 10 lines.
 */
static void ust_fault_log(struct kunit *test)
{
	u64 pos = printk_log_end();

	KUNIT_EXPECT_EQ(test, run(test, "/bin/ucrash", "segv_handled"), 0);
	KUNIT_EXPECT_EQ(test, log_count(pos, "segfault at"), 0);
	pos = printk_log_end();
	KUNIT_EXPECT_EQ(test, run(test, "/bin/ucrash", "segv_many"), 0);
	KUNIT_EXPECT_LE(test, log_count(pos, "segfault at"), 10);
	ust_settle();
}

static void ust_run_entries(struct kunit *test, void *unused)
{
	KUNIT_EXPECT_EQ(test, run(test, "/bin/uentry", NULL), 0);
}

/*
 * Every way into ring 0 from 64- and 32-bit code (SYSCALL, SYSENTER,
 * int $n for all 256 n, int3, into, icebp, faults) and IRET back with
 * bad frames: uentry's outcomes are this kernel's, nothing leaks, and
 * the kernel is still here to say so.
 */
static void ust_entries(struct kunit *test)
{
	/* Unpacked first (kept), or the first run is counted leaking it. */
	KUNIT_ASSERT_NOT_NULL(test, exec_find("/bin/uentry"));
	kunit_expect_no_leak(test, ust_run_entries, NULL, ust_settle);
	KUNIT_EXPECT_EQ(test, nr_processes(), 0);
}

static void ust_run_conform(struct kunit *test, void *unused)
{
	KUNIT_EXPECT_EQ(test, run(test, "/bin/uconform", NULL), 0);
}

/*
 * uconform, not as pid 1 (make test compares its output as pid 1 with
 * Linux's): every child it forks, kills and reaps leaves no frame behind.
 */
static void ust_conform(struct kunit *test)
{
	KUNIT_ASSERT_NOT_NULL(test, exec_find("/bin/uconform"));
	kunit_expect_no_leak(test, ust_run_conform, NULL, ust_settle);
	KUNIT_EXPECT_EQ(test, nr_processes(), 0);
	KUNIT_EXPECT_FALSE(test, schedstat_enabled());
}

static void ust_run_threads(struct kunit *test, void *unused)
{
	KUNIT_EXPECT_EQ(test, run(test, "/bin/uthread", NULL), 0);
}

/*
 * uthread (pthreads over clone3 and futexes, compared with Linux's output
 * as pid 1 by make test): every check as Linux answers it, no frame
 * leaked by its threads and children, no futex waiter left queued by the
 * threads an exit_group ended while they waited.
 */
static void ust_threads(struct kunit *test)
{
	KUNIT_ASSERT_NOT_NULL(test, exec_find("/bin/uthread"));
	kunit_expect_no_leak(test, ust_run_threads, NULL, ust_settle);
	KUNIT_EXPECT_EQ(test, nr_processes(), 0);
	KUNIT_EXPECT_EQ(test, futex_nr_queued(), 0);
}

static void ust_run_hello_preempted(struct kunit *test, void *unused)
{
	WRITE_ONCE(process_exit_yields, true);
	KUNIT_EXPECT_EQ(test, run(test, "/bin/hello", "x"), 3 << 8);
	WRITE_ONCE(process_exit_yields, false);
}

/*
 * Issue 34, finding 2: the last thread switched out and back in right
 * before it frees the address space (process_exit_yields: a yield where
 * a preemption could come). It detached from the process first, so the
 * switch back loads no user page tables: the address space is freed in
 * full (before the fix the switch loaded the dying pgd, user_pgd_free()
 * WARNed and leaked it).
 */
static void ust_exit_preempted(struct kunit *test)
{
	kunit_expect_no_leak(test, ust_run_hello_preempted, NULL, ust_settle);
	KUNIT_EXPECT_EQ(test, nr_processes(), 0);
}

static void ust_run_forkbomb(struct kunit *test, void *unused)
{
	KUNIT_EXPECT_EQ(test, run(test, "/bin/ucrash", "forkbomb"), 0);
}

/* Forks until -EAGAIN (PROCESS_MAX); all reaped, nothing leaked. */
static void ust_forkbomb(struct kunit *test)
{
	kunit_expect_no_leak(test, ust_run_forkbomb, NULL, ust_settle);
	KUNIT_EXPECT_EQ(test, nr_processes(), 0);
}

/* A copy of hello with one thing wrong: exec_load() must refuse it. */
static int load_bad(struct kunit *test, void (*spoil)(u8 *img, size_t *size))
{
	const struct user_prog *prog = exec_find("/bin/hello");
	const char *argv[] = { "bad", NULL };
	struct mm_struct *mm;
	unsigned long ip, sp, before;
	size_t size;
	u8 *img;
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, prog);
	img = kmalloc(prog->size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, img);
	memcpy(img, prog->data, prog->size);
	size = prog->size;
	spoil(img, &size);
	before = nr_free_frames();
	mm = mm_alloc();
	KUNIT_ASSERT_NOT_NULL(test, mm);
	ret = exec_load(mm, "bad", img, size, argv, NULL, false, &ip, &sp);
	mm_free(mm);
	KUNIT_EXPECT_EQ(test, nr_free_frames(), before);
	kfree(img);
	return ret;
}

/* The first PT_LOAD's program header. */
static u8 *first_load(u8 *img)
{
	u64 phoff = *(u64 *)(img + 32);
	u16 phnum = *(u16 *)(img + 56);
	unsigned int i;

	for (i = 0; i < phnum; i++)
		if (*(u32 *)(img + phoff + 56 * i) == 1)
			return img + phoff + 56 * i;
	return NULL;
}

static void spoil_truncate(u8 *img, size_t *size)
{
	*size = 40;
}

static void spoil_truncate_segments(u8 *img, size_t *size)
{
	*size = 4096;
}

static void spoil_magic(u8 *img, size_t *size)
{
	img[1] = 'X';
}

static void spoil_kernel_half(u8 *img, size_t *size)
{
	*(u64 *)(first_load(img) + 16) = 0xffffffff80000000ULL;
}

static void spoil_huge(u8 *img, size_t *size)
{
	*(u64 *)(first_load(img) + 40) = 1ULL << 40;
}

static void spoil_overlap(u8 *img, size_t *size)
{
	u8 *ph = first_load(img);

	/* The next program header's segment moved onto the first one. */
	*(u64 *)(ph + 56 + 16) = *(u64 *)(ph + 16);
	*(u32 *)(ph + 56) = 1;
}

static void ust_bad_elf(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, load_bad(test, spoil_truncate), -ENOEXEC);
	KUNIT_EXPECT_EQ(test, load_bad(test, spoil_truncate_segments),
			-ENOEXEC);
	KUNIT_EXPECT_EQ(test, load_bad(test, spoil_magic), -ENOEXEC);
	KUNIT_EXPECT_EQ(test, load_bad(test, spoil_kernel_half), -ENOEXEC);
	KUNIT_EXPECT_EQ(test, load_bad(test, spoil_huge), -ENOEXEC);
	KUNIT_EXPECT_EQ(test, load_bad(test, spoil_overlap), -ENOEXEC);
}

/* Reads the trace until a line holds s. */
static bool ust_trace_find(char *line, size_t size, const char *s)
{
	while (trace_read_line(line, size))
		if (strstr(line, s))
			return true;
	return false;
}

/*
 * raw_syscalls:sys_enter and sys_exit record the number, the arguments
 * and the return value, in order: hello's getppid() (110) returns 0,
 * its last call is exit_group(3) (231).
 */
static void ust_trace(struct kunit *test)
{
	char *line;

	if (!IS_ENABLED(CONFIG_TRACING))
		kunit_skip(test, "no CONFIG_TRACING");
	line = kmalloc(256, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, line);
	trace_clear();
	KUNIT_ASSERT_EQ(test, trace_set_event("raw_syscalls:sys_enter", true),
			0);
	KUNIT_ASSERT_EQ(test, trace_set_event("raw_syscalls:sys_exit", true),
			0);
	KUNIT_EXPECT_EQ(test, run(test, "/bin/hello", "traced"), 3 << 8);
	trace_set_event("raw_syscalls:*", false);
	KUNIT_EXPECT_TRUE(test,
			  ust_trace_find(line, 256, "sys_enter: NR 110 ("));
	KUNIT_EXPECT_TRUE(test,
			  ust_trace_find(line, 256, "sys_exit: NR 110 = 0"));
	KUNIT_EXPECT_TRUE(test,
			  ust_trace_find(line, 256, "sys_enter: NR 231 (3, "));
	trace_clear();
	kfree(line);
}

/*
 * The system-call fuzzer (user/fuzz/ufuzz.c): userspace_test.fuzz_seeds
 * seeds of userspace_test.fuzz_calls random calls each (make stress runs
 * many more), each run ending with ufuzz's health check (fork, exec,
 * pipe) and the frame and kmalloc counts as they were: the kernel keeps
 * nothing a process made (its cached task stacks are reaped first).
 */
static unsigned int ust_fuzz_seeds = 4;
static unsigned int ust_fuzz_calls = 2000;
core_param_named("userspace_test.fuzz_seeds", ust_fuzz_seeds, uint);
core_param_named("userspace_test.fuzz_calls", ust_fuzz_calls, uint);

/* Kernel memory for the fuzzer to aim at: data, and the direct map. */
static u8 ust_canary[256] = { 0x5a };
static u8 *ust_direct;

/* Text, data, a static key and the direct map, as ufuzz's arguments. */
static void ust_kaddrs(char (*a)[24])
{
	snprintf(a[0], 24, "%#lx", (unsigned long)schedule);
	snprintf(a[1], 24, "%#lx", (unsigned long)ust_canary);
	snprintf(a[2], 24, "%#lx", (unsigned long)&sched_schedstats);
	snprintf(a[3], 24, "%#lx", (unsigned long)ust_direct);
}

static u32 ust_sum(const void *p, size_t n)
{
	const u8 *b = p;
	u32 h = 2166136261U;

	while (n--)
		h = (h ^ *b++) * 16777619U;
	return h;
}

/* A checksum of every byte the fuzzer is pointed at. */
static u32 ust_kernel_sum(void)
{
	return ust_sum((const void *)schedule, 256) ^
	       ust_sum(ust_canary, sizeof(ust_canary)) * 3 ^
	       ust_sum(&sched_schedstats, sizeof(sched_schedstats)) * 5 ^
	       ust_sum(ust_direct, PAGE_SIZE) * 7;
}

static int ust_run_ufuzz(struct kunit *test, const char *mode,
			 unsigned int seed)
{
	char k[4][24], s[16], n[16];
	const char *fuzz_argv[] = { "ufuzz", mode, s, n, k[0], k[1],
				    k[2], k[3], NULL };
	const char *walk_argv[] = { "ufuzz", mode, k[0], k[1],
				    k[2], k[3], NULL };
	const char *envp[] = { NULL };
	struct process *p;
	int ret;

	ust_kaddrs(k);
	snprintf(s, sizeof(s), "%u", seed);
	snprintf(n, sizeof(n), "%u", ust_fuzz_calls);
	ret = process_spawn("/bin/ufuzz",
			    strcmp(mode, "walk") ? fuzz_argv : walk_argv, envp,
			    &p);
	KUNIT_ASSERT_EQ(test, ret, 0);
	return process_wait(p);
}

static void ust_run_fuzz_seed(struct kunit *test, void *seed)
{
	KUNIT_EXPECT_EQ(test,
			ust_run_ufuzz(test, "fuzz", (unsigned long)seed), 0);
}

static int ust_init(struct kunit *test)
{
	ust_direct = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!ust_direct)
		return -ENOMEM;
	memset(ust_direct, 0xa5, PAGE_SIZE);
	return 0;
}

static void ust_exit(struct kunit *test)
{
	kfree(ust_direct);
	ust_direct = NULL;
}

static void ust_fuzz(struct kunit *test)
{
	u32 sum = ust_kernel_sum();
	bool on = schedstat_enabled();
	unsigned long seed;

	KUNIT_ASSERT_NOT_NULL(test, exec_find("/bin/ufuzz"));
	for (seed = 1; seed <= ust_fuzz_seeds && !test->status; seed++)
		kunit_expect_no_leak(test, ust_run_fuzz_seed, (void *)seed,
				     ust_settle);
	KUNIT_EXPECT_EQ(test, nr_processes(), 0);
	KUNIT_EXPECT_EQ(test, ust_kernel_sum(), sum);
	KUNIT_EXPECT_EQ(test, schedstat_enabled(), on);
}

/*
 * Every call that takes a pointer, given in turn the kernel's text, a
 * data buffer, a static key and a direct-map page: none succeeds, and
 * not a byte of them changed.
 */
static void ust_kernel_pointers(struct kunit *test)
{
	u32 sum = ust_kernel_sum();

	KUNIT_EXPECT_EQ(test, ust_run_ufuzz(test, "walk", 0), 0);
	KUNIT_EXPECT_EQ(test, ust_kernel_sum(), sum);
	ust_settle();
}

static struct kunit_case ust_cases[] = {
	KUNIT_CASE(ust_hello),		KUNIT_CASE(ust_syscalls),
	KUNIT_CASE(ust_crashes),	KUNIT_CASE(ust_forkbomb),
	KUNIT_CASE(ust_conform),	KUNIT_CASE(ust_threads),
	KUNIT_CASE(ust_exit_preempted), KUNIT_CASE(ust_bad_elf),
	KUNIT_CASE(ust_trace),		KUNIT_CASE(ust_fault_log),
	KUNIT_CASE(ust_entries),	KUNIT_CASE(ust_kernel_pointers),
	KUNIT_CASE(ust_fuzz),		{}
};

static struct kunit_suite ust_suite = {
	.name = "userspace",
	.init = ust_init,
	.exit = ust_exit,
	.test_cases = ust_cases,
};
kunit_test_suite(ust_suite);
