// SPDX-License-Identifier: GPL-2.0
/*
 * The system-call table (Linux's x86-64 numbers) and the calls that fit
 * nowhere else: identity, time, scheduling, limits, random bytes, uname,
 * arch_prctl, signals' bookkeeping and reboot. A number without an entry
 * returns -ENOSYS and is logged once.
 */
#include <linux/kernel.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/process.h>
#include <linux/sched.h>
#include <linux/signal.h>
#include <linux/string.h>
#include <linux/syscalls.h>
#include <linux/timekeeping.h>
#include <linux/timex.h>
#include <asm/barrier.h>
#include <asm/ptrace.h>
#include <asm/reboot.h>
#include <asm/user.h>
#include <asm/user_pgtable.h>

static long sys_getpid(void)
{
	return current_process()->pid;
}

static long sys_getppid(void)
{
	return READ_ONCE(current_process()->ppid);
}

static long sys_gettid(void)
{
	return current_thread()->tid;
}

static long sys_set_tid_address(unsigned long tidptr)
{
	current_thread()->clear_child_tid = tidptr;
	return current_thread()->tid;
}

/* Stored for get_robust_list; the list is not walked at exit. */
static long sys_set_robust_list(unsigned long head, unsigned long len)
{
	if (len != 24)
		return -EINVAL;
	current_thread()->robust_list = head;
	return 0;
}

static long sys_get_robust_list(unsigned long tid, unsigned long uhead,
				unsigned long ulen)
{
	unsigned long head, len = 24;
	struct uthread *t;

	spin_lock_irq(&process_lock);
	t = tid ? thread_find(NULL, tid) : current_thread();
	head = t ? t->robust_list : 0;
	spin_unlock_irq(&process_lock);
	if (!t)
		return -ESRCH;
	if (copy_to_user((void __user *)ulen, &len, sizeof(len)) ||
	    copy_to_user((void __user *)uhead, &head, sizeof(head)))
		return -EFAULT;
	return 0;
}

#define ARCH_SET_GS 0x1001
#define ARCH_SET_FS 0x1002
#define ARCH_GET_FS 0x1003
#define ARCH_GET_GS 0x1004

static long sys_arch_prctl(unsigned long code, unsigned long addr)
{
	unsigned long zero = 0;

	switch (code) {
	case ARCH_SET_FS:
		if (addr >= USER_ADDR_END)
			return -EPERM;
		arch_set_fsbase(addr);
		return 0;
	case ARCH_GET_FS:
		return copy_to_user((void __user *)addr,
				    &current_thread()->fsbase, sizeof(long)) ?
			       -EFAULT :
			       0;
	case ARCH_GET_GS:
		return copy_to_user((void __user *)addr, &zero, sizeof(long)) ?
			       -EFAULT :
			       0;
	}
	return -EINVAL;
}

struct rlimit64 {
	u64 cur, max;
};

#define RLIMIT_STACK 3
#define RLIMIT_NPROC 6
#define RLIMIT_NOFILE 7
#define RLIM_INFINITY (~0ULL)

static long sys_prlimit64(unsigned long pid, unsigned long res,
			  unsigned long unew, unsigned long uold)
{
	struct rlimit64 r = { RLIM_INFINITY, RLIM_INFINITY }, n;

	if (pid && pid != (unsigned long)current_process()->pid)
		return -ESRCH;
	if (res >= 16)
		return -EINVAL;
	if (res == RLIMIT_STACK)
		r.cur = r.max = USER_STACK_SIZE;
	else if (res == RLIMIT_NOFILE)
		r.cur = r.max = NR_OPEN;
	else if (res == RLIMIT_NPROC)
		r.cur = r.max = PROCESS_MAX;
	if (unew && copy_from_user(&n, (const void __user *)unew, sizeof(n)))
		return -EFAULT;
	if (unew && n.cur > n.max)
		return -EINVAL;
	if (uold && copy_to_user((void __user *)uold, &r, sizeof(r)))
		return -EFAULT;
	/* The limits are fixed: only the values they have are taken. */
	return unew && (n.cur != r.cur || n.max != r.max) ? -EPERM : 0;
}

/* Bytes from a xorshift of the TSC (not cryptographic), 8 at a time. */
static long sys_getrandom(unsigned long ubuf, unsigned long len,
			  unsigned long flags)
{
	u64 x = get_cycles() * 0x9e3779b97f4a7c15ULL;
	unsigned long done, k;

	if (flags & ~7UL)
		return -EINVAL;
	len = min(len, 0x7ffff000UL); /* Linux's MAX_RW_COUNT */
	for (done = 0; done < len; done += k) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		k = min(len - done, sizeof(x));
		if (copy_to_user((u8 __user *)ubuf + done, &x, k))
			return done ? (long)done : -EFAULT;
		if (process_signal_pending())
			break;
	}
	return done;
}

static long sys_uname(unsigned long ubuf)
{
	static const char fields[6][65] = { "Linux",  "static-keys", "6.1.0",
					    "#1 SMP", "x86_64",	     "(none)" };

	return copy_to_user((void __user *)ubuf, fields, sizeof(fields)) ?
		       -EFAULT :
		       0;
}

struct kernel_timespec {
	s64 sec;
	long nsec;
};

/*
 * The wall clock: the CMOS clock read once, moved on by the monotonic
 * clock (no NTP, no settimeofday). CLOCK_TAI is the same, as on a Linux
 * that was never told the TAI offset.
 */
u64 realtime_ns(void)
{
	static s64 offset;
	static bool read;
	u64 now = ktime_get_ns();

	if (!READ_ONCE(read)) {
		WRITE_ONCE(offset, (s64)(rtc_read_seconds() * 1000000000ULL) -
					   (s64)now);
		smp_wmb();
		WRITE_ONCE(read, true);
	}
	smp_rmb();
	return now + READ_ONCE(offset);
}

static bool clock_is_wall(unsigned long clk)
{
	return clk == 0 || clk == 5 || clk == 8 || clk == 11;
}

static long sys_clock_gettime(unsigned long clk, unsigned long uts)
{
	u64 ns = clock_is_wall(clk) ? realtime_ns() : ktime_get_ns();
	struct kernel_timespec ts = { ns / 1000000000ULL, ns % 1000000000ULL };

	/* Linux's clocks: 0-9 and 11 (CLOCK_TAI); 10 is no clock. */
	if (clk > 11 || clk == 10)
		return -EINVAL;
	return copy_to_user((void __user *)uts, &ts, sizeof(ts)) ? -EFAULT : 0;
}

/* Everything runs as root (uid 0, gid 0), as Linux's init. */
static long sys_getuid(void)
{
	return 0;
}

static long sys_umask(unsigned long mask)
{
	struct process *p = current_process();
	long old = p->umask;

	p->umask = mask & 0777;
	return old;
}

/* There is one directory to be in: "/". */
static long sys_getcwd(unsigned long ubuf, unsigned long size)
{
	if (size < 2)
		return -ERANGE;
	return copy_to_user((void __user *)ubuf, "/", 2) ? -EFAULT : 2;
}

struct kernel_timeval {
	s64 sec, usec;
};

static long sys_gettimeofday(unsigned long utv, unsigned long utz)
{
	u64 ns = realtime_ns();
	struct kernel_timeval tv = { ns / 1000000000ULL,
				     ns % 1000000000ULL / 1000 };
	u32 tz[2] = {};

	if (utv && copy_to_user((void __user *)utv, &tv, sizeof(tv)))
		return -EFAULT;
	if (utz && copy_to_user((void __user *)utz, tz, sizeof(tz)))
		return -EFAULT;
	return 0;
}

static long sys_time(unsigned long ut)
{
	s64 t = realtime_ns() / 1000000000ULL;

	if (ut && copy_to_user((void __user *)ut, &t, sizeof(t)))
		return -EFAULT;
	return t;
}

/* Every clock ticks in nanoseconds (the TSC); the coarse ones by jiffies. */
static long sys_clock_getres(unsigned long clk, unsigned long uts)
{
	struct kernel_timespec ts = { 0, clk == 5 || clk == 6 ? 1000000 : 1 };

	if (clk > 11 || clk == 10)
		return -EINVAL;
	if (uts && copy_to_user((void __user *)uts, &ts, sizeof(ts)))
		return -EFAULT;
	return 0;
}

/* A timespec in nanoseconds, saturated (2^40 s is "forever", not 20 ms). */
static u64 timespec_ns(const struct kernel_timespec *ts)
{
	if ((u64)ts->sec > (~0ULL - ts->nsec) / 1000000000ULL)
		return ~0ULL;
	return ts->sec * 1000000000ULL + ts->nsec;
}

/*
 * Sleeps until ktime_get_ns() reaches end, interruptibly (as Linux's
 * hrtimer sleeps): 0, or -EINTR when a signal will act (a handler; a
 * kill ends the process on the way out), *left the time not slept.
 */
static long user_sleep_until(u64 end, u64 *left)
{
	const u64 tick_ns = 1000000000ULL / HZ;

	for (;;) {
		u64 now = ktime_get_ns(), wait;

		if (now >= end)
			return 0;
		wait = (end - now) / tick_ns + 1;
		set_current_state(TASK_INTERRUPTIBLE);
		if (process_signal_pending()) {
			__set_current_state(TASK_RUNNING);
			*left = end - now;
			return -EINTR;
		}
		schedule_timeout(min(wait, (u64)(1UL << 30)));
	}
}

static u64 deadline_after(u64 ns)
{
	u64 now = ktime_get_ns();

	return ns > ~0ULL - now ? ~0ULL : now + ns;
}

/* A signal's -EINTR writes the time left to rem, as Linux's. */
static long sleep_interrupted(unsigned long urem, u64 left)
{
	struct kernel_timespec rem = { left / 1000000000ULL,
				       left % 1000000000ULL };

	if (urem && copy_to_user((void __user *)urem, &rem, sizeof(rem)))
		return -EFAULT;
	return -EINTR;
}

static long sys_nanosleep(unsigned long ureq, unsigned long urem)
{
	struct kernel_timespec ts;
	u64 left;

	if (copy_from_user(&ts, (const void __user *)ureq, sizeof(ts)))
		return -EFAULT;
	if (ts.sec < 0 || ts.nsec < 0 || ts.nsec >= 1000000000L)
		return -EINVAL;
	if (user_sleep_until(deadline_after(timespec_ns(&ts)), &left))
		return sleep_interrupted(urem, left);
	return 0;
}

#define TIMER_ABSTIME 1

/* glibc's nanosleep(): a relative sleep, or until an absolute time. */
static long sys_clock_nanosleep(unsigned long clk, unsigned long flags,
				unsigned long ureq, unsigned long urem)
{
	struct kernel_timespec ts;
	u64 ns, now, left;

	if (clk > 11 || clk == 3 || clk == 10) /* as Linux: no thread clock */
		return -EINVAL;
	if (copy_from_user(&ts, (const void __user *)ureq, sizeof(ts)))
		return -EFAULT;
	if (ts.sec < 0 || ts.nsec < 0 || ts.nsec >= 1000000000L)
		return -EINVAL;
	ns = timespec_ns(&ts);
	if (flags & TIMER_ABSTIME) {
		now = clock_is_wall(clk) ? realtime_ns() : ktime_get_ns();
		ns = ns > now ? ns - now : 0;
	}
	if (!user_sleep_until(deadline_after(ns), &left))
		return 0;
	/* An absolute sleep has nothing to tell: rem is not written. */
	return sleep_interrupted(flags & TIMER_ABSTIME ? 0 : urem, left);
}

static long sys_sched_yield(void)
{
	yield();
	return 0;
}

/*
 * The task of thread tid (0: the caller), holding a reference, or NULL:
 * for the sched_*affinity calls.
 */
static struct task_struct *affinity_task(unsigned long tid)
{
	struct task_struct *t = NULL;
	struct uthread *ut;

	if (!tid)
		tid = current_thread()->tid;
	spin_lock_irq(&process_lock);
	ut = thread_find(NULL, (int)tid);
	if (ut) {
		t = ut->task;
		get_task_struct(t);
	}
	spin_unlock_irq(&process_lock);
	return t;
}

/* The thread's mask of CPUs, those online: as Linux, 8 bytes at least. */
static long sys_sched_getaffinity(unsigned long pid, unsigned long len,
				  unsigned long umask)
{
	struct task_struct *t;
	u64 mask = 0;
	unsigned int cpu;

	if (len < sizeof(mask) || (len & 7))
		return -EINVAL;
	t = affinity_task(pid);
	if (!t)
		return -ESRCH;
	for_each_online_cpu(cpu)
		if (cpu < 64 && (t->cpus_allowed & (1ULL << cpu)))
			mask |= 1ULL << cpu;
	put_task_struct(t);
	/* As Linux: the mask's own bytes, not len of them. */
	if (copy_to_user((void __user *)umask, &mask, sizeof(mask)))
		return -EFAULT;
	return sizeof(mask);
}

/*
 * Thread pid (0: the caller) runs on the CPUs of the mask from now on
 * (sched_setaffinity()): -EINVAL if the mask has no active CPU.
 */
static long sys_sched_setaffinity(unsigned long pid, unsigned long len,
				  unsigned long umask)
{
	struct task_struct *t;
	u64 mask = 0;
	long ret;

	if (copy_from_user(&mask, (const void __user *)umask,
			   min(len, sizeof(mask))))
		return -EFAULT;
	t = affinity_task(pid);
	if (!t)
		return -ESRCH;
	ret = sched_setaffinity(t, mask);
	if (!ret && t == current)
		sched_move_current();
	put_task_struct(t);
	return ret;
}

/* getcpu(cpu, node, cache): the CPU it ran on when asked; node 0. */
static long sys_getcpu(unsigned long ucpu, unsigned long unode)
{
	unsigned int cpu = raw_smp_processor_id(), node = 0;

	if (ucpu && copy_to_user((void __user *)ucpu, &cpu, sizeof(cpu)))
		return -EFAULT;
	if (unode && copy_to_user((void __user *)unode, &node, sizeof(node)))
		return -EFAULT;
	return 0;
}

#define SIG_BLOCK 0
#define SIG_UNBLOCK 1
#define SIG_SETMASK 2

static long sys_rt_sigaction(unsigned long sig, unsigned long uact,
			     unsigned long uold, unsigned long size)
{
	struct process *p = current_process();
	struct k_sigaction act;

	if (size != 8 || sig < 1 || sig > NSIG)
		return -EINVAL;
	if (uold && copy_to_user((void __user *)uold, &p->sigaction[sig - 1],
				 sizeof(act)))
		return -EFAULT;
	if (!uact)
		return 0;
	if (sig == SIGKILL || sig == SIGSTOP)
		return -EINVAL;
	if (copy_from_user(&act, (const void __user *)uact, sizeof(act)))
		return -EFAULT;
	p->sigaction[sig - 1] = act;
	return 0;
}

static long sys_rt_sigprocmask(unsigned long how, unsigned long uset,
			       unsigned long uold, unsigned long size)
{
	struct uthread *p = current_thread();
	u64 set;

	if (size != 8)
		return -EINVAL;
	if (uold && copy_to_user((void __user *)uold, &p->sig_blocked, 8))
		return -EFAULT;
	if (!uset)
		return 0;
	if (copy_from_user(&set, (const void __user *)uset, 8))
		return -EFAULT;
	/* SIGKILL and SIGSTOP cannot be blocked (nor seen blocked). */
	set &= ~((1ULL << (SIGKILL - 1)) | (1ULL << (SIGSTOP - 1)));
	if (how == SIG_BLOCK)
		p->sig_blocked |= set;
	else if (how == SIG_UNBLOCK)
		p->sig_blocked &= ~set;
	else if (how == SIG_SETMASK)
		p->sig_blocked = set;
	else
		return -EINVAL;
	WRITE_ONCE(p->exit_work, 1); /* a pending signal may be unblocked */
	return 0;
}

static long sys_rt_sigpending(unsigned long uset, unsigned long size)
{
	struct uthread *t = current_thread();
	u64 set = (READ_ONCE(t->sig_pending) | READ_ONCE(t->proc->sig_shared)) &
		  t->sig_blocked;

	if (size > 8)
		return -EINVAL;
	return copy_to_user((void __user *)uset, &set, size) ? -EFAULT : 0;
}

#define LINUX_REBOOT_MAGIC1 0xfee1dead
#define LINUX_REBOOT_MAGIC2 672274793
#define LINUX_REBOOT_CMD_RESTART 0x01234567
#define LINUX_REBOOT_CMD_HALT 0xcdef0123
#define LINUX_REBOOT_CMD_POWER_OFF 0x4321fedc

static long sys_reboot(unsigned long magic1, unsigned long magic2,
		       unsigned long cmd, unsigned long arg)
{
	if ((u32)magic1 != LINUX_REBOOT_MAGIC1 ||
	    (u32)magic2 != LINUX_REBOOT_MAGIC2)
		return -EINVAL;
	switch ((u32)cmd) {
	case LINUX_REBOOT_CMD_POWER_OFF:
		pr_emerg("reboot: Power down\n");
		machine_power_off(QEMU_EXIT_SUCCESS);
	case LINUX_REBOOT_CMD_RESTART:
		pr_emerg("reboot: Restarting system\n");
		machine_restart();
	case LINUX_REBOOT_CMD_HALT:
		pr_emerg("reboot: System halted\n");
		machine_halt();
	}
	return -EINVAL;
}

static long sys_ni_rseq(void)
{
	return -ENOSYS; /* glibc runs without rseq, as on old kernels */
}

/* A number without an entry (entry_syscall_64.S calls it directly). */
static long sys_ni_syscall(void)
{
	return syscall_enosys((unsigned int)current_user_regs()->error_code);
}

/* The x86-64 ABI passes unused argument registers harmlessly. */
#define SC(nr, fn) [nr] = (syscall_fn_t)(void (*)(void))(fn)

/* Every slot sys_ni_syscall, then the entries (overriding it). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverride-init"
const syscall_fn_t sys_call_table[NR_syscalls] = {
	[0 ... NR_syscalls - 1] = (syscall_fn_t)(void (*)(void))sys_ni_syscall,
	SC(0, sys_read),
	SC(1, sys_write),
	SC(3, sys_close),
	SC(5, sys_fstat),
	SC(8, sys_lseek),
	SC(9, sys_mmap),
	SC(10, sys_mprotect),
	SC(11, sys_munmap),
	SC(12, sys_brk),
	SC(13, sys_rt_sigaction),
	SC(14, sys_rt_sigprocmask),
	SC(15, sys_rt_sigreturn),
	SC(16, sys_ioctl),
	SC(20, sys_writev),
	SC(22, sys_pipe),
	SC(24, sys_sched_yield),
	SC(32, sys_dup),
	SC(33, sys_dup2),
	SC(35, sys_nanosleep),
	SC(39, sys_getpid),
	SC(56, sys_clone),
	SC(57, sys_fork),
	SC(58, sys_fork),
	SC(59, sys_execve),
	SC(36, sys_getitimer),
	SC(37, sys_alarm),
	SC(38, sys_setitimer),
	SC(60, sys_exit),
	SC(61, sys_wait4),
	SC(62, sys_kill),
	SC(63, sys_uname),
	SC(79, sys_getcwd),
	SC(83, sys_mkdir),
	SC(89, sys_readlink),
	SC(95, sys_umask),
	SC(96, sys_gettimeofday),
	SC(98, sys_getrusage),
	SC(102, sys_getuid),
	SC(104, sys_getuid),
	SC(107, sys_getuid),
	SC(108, sys_getuid),
	SC(110, sys_getppid),
	SC(158, sys_arch_prctl),
	SC(127, sys_rt_sigpending),
	SC(165, sys_mount),
	SC(169, sys_reboot),
	SC(186, sys_gettid),
	SC(200, sys_tkill),
	SC(201, sys_time),
	SC(202, sys_futex),
	SC(203, sys_sched_setaffinity),
	SC(204, sys_sched_getaffinity),
	SC(218, sys_set_tid_address),
	SC(228, sys_clock_gettime),
	SC(229, sys_clock_getres),
	SC(230, sys_clock_nanosleep),
	SC(231, sys_exit_group),
	SC(234, sys_tgkill),
	SC(257, sys_openat),
	SC(258, sys_mkdirat),
	SC(262, sys_newfstatat),
	SC(267, sys_readlinkat),
	SC(273, sys_set_robust_list),
	SC(274, sys_get_robust_list),
	SC(292, sys_dup3),
	SC(293, sys_pipe2),
	SC(302, sys_prlimit64),
	SC(309, sys_getcpu),
	SC(318, sys_getrandom),
	SC(334, sys_ni_rseq),
	SC(435, sys_clone3),
};
#pragma GCC diagnostic pop

static unsigned long enosys_seen[(512 + BITS_PER_LONG - 1) / BITS_PER_LONG];

struct pt_regs *current_user_regs(void)
{
	return task_pt_regs(current);
}

static long __syscall_enosys(unsigned long nr)
{
	unsigned long bit;

	bit = nr < 512 ? nr : 511;
	if (!(__atomic_fetch_or(&enosys_seen[bit / BITS_PER_LONG],
				1UL << (bit % BITS_PER_LONG),
				__ATOMIC_RELAXED) &
	      (1UL << (bit % BITS_PER_LONG))))
		pr_info("syscall: %s[%d]: unknown system call %lu: -ENOSYS\n",
			current_process()->comm, current_process()->pid, nr);
	return -ENOSYS;
}

/* What a number without an entry gets: -ENOSYS, logged once. */
long syscall_enosys(unsigned long nr)
{
	return __syscall_enosys(nr);
}
