/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_PROCESS_H
#define _LINUX_PROCESS_H

/*
 * User processes (Documentation/userspace.rst): a task running a program
 * in ring 3 in its own address space, with Linux's x86-64 system calls.
 *
 * A process is a thread group: one pid, one address space, one fd table,
 * one set of signal actions, shared by its threads (struct uthread), each
 * of which is a task with its own tid, blocked set, pending signals, FS
 * base and FPU state; task_struct->proc points at the process and
 * task_struct->uthread at the thread. The first thread's tid is the pid.
 *
 * Processes form a tree under process_lock: a parent's children list
 * holds its live and zombie children (any thread of the parent may wait
 * for them); an orphan goes to no one and is reaped by itself on exit. A
 * process whose last thread exits becomes a zombie holding its status
 * until its parent's wait4() frees it. process_lock also guards each
 * process's thread list.
 */
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/uaccess.h>
#include <linux/timer.h>
#include <linux/wait.h>
#include <asm/user_pgtable.h>

#define NR_OPEN 64 /* fds per process */
#define PROCESS_MAX 16 /* live processes at once: fork gets -EAGAIN */
#define THREAD_MAX 64 /* user threads at once: clone gets -EAGAIN */
#define USER_STACK_TOP 0x00007ffffffde000UL
#define USER_STACK_SIZE (128 * 1024UL)
#define USER_MMAP_TOP 0x00007f0000000000UL
#define USER_PIE_BASE 0x0000555555554000UL
#define USER_MAP_MAX (64UL << 20) /* bytes one mmap/brk may ask at once */

struct task_struct;
struct file;

/*
 * An address space: a page table and where brk and mmap stand. lock
 * serialises the calls that change it (brk, mmap, munmap, mprotect, a
 * fork's copy) between the threads that share it. The CPUs that have pgd
 * loaded are those whose cpu_user_mm is this mm (arch); a change that
 * removes or narrows a mapping flushes them (mm_flush_tlb()) before the
 * frames it unmapped are freed.
 */
struct mm_struct {
	phys_addr_t pgd;
	struct mutex lock;
	unsigned long start_brk, brk; /* the heap: [start_brk, brk) */
	unsigned long mmap_next; /* mmap hands out below this */
	unsigned long nr_pages; /* user pages mapped */
	unsigned long hiwater_pages; /* the most nr_pages was (ru_maxrss) */
};

struct k_sigaction {
	unsigned long handler; /* SIG_DFL (0), SIG_IGN (1) or a function */
	unsigned long flags;
	unsigned long restorer;
	u64 mask;
};

#define NSIG 64

/* Linux's si_code values the kernel sends. */
#define SI_USER 0 /* kill() */
#define SI_KERNEL 0x80
#define SI_TKILL (-6) /* tkill(), tgkill() */

/* Who sent a pending signal, for its handler's siginfo. */
struct sig_sender {
	int code; /* si_code */
	int pid; /* si_pid: the sender's process */
};

/* What getrusage() and wait4() count: Linux's struct rusage's fields. */
struct task_usage {
	u64 utime_ns, stime_ns; /* sampled by the tick (user or kernel mode) */
	unsigned long nvcsw, nivcsw; /* voluntary, involuntary switches */
	unsigned long maxrss_kb;
};

/*
 * One thread of a process: its task, and the state Linux keeps per
 * thread. Freed by the thread itself on its way out (thread_exit()).
 */
struct uthread {
	int tid;
	struct process *proc;
	struct task_struct *task; /* holds a reference */
	struct list_head node; /* in proc->threads, under process_lock */
	/* Non-zero: a system call returns the slow way (a signal, execve). */
	int exit_work;
	bool regs_rewritten; /* execve: return with IRET, all registers */
	u64 sig_pending; /* thread-directed; bit n-1: signal n */
	u64 sig_blocked;
	struct sig_sender sig_from[NSIG]; /* of the thread-directed ones */
	unsigned long fsbase;
	unsigned long clear_child_tid; /* set_tid_address, CLONE_CHILD_CLEARTID
					*/
	unsigned long set_child_tid; /* CLONE_CHILD_SETTID: written at start */
	unsigned long robust_list; /* set_robust_list's head (not walked) */
	u64 utime_ns, stime_ns;
	u8 fpu[512] __aligned(16); /* fxsave image while switched out */
};

struct process {
	int pid; /* the thread group's id: its first thread's tid */
	struct process *parent; /* NULL: none waits for it */
	int ppid; /* the parent's pid, 0 without one (getppid) */
	unsigned int umask; /* stored for umask(), inherited */
	struct list_head children; /* of struct process, by sibling */
	struct list_head sibling;
	struct list_head threads; /* of struct uthread, by node */
	unsigned int nr_threads; /* on the list */
	/*
	 * Set: every thread but exec_thread leaves at its next return to
	 * user mode or interruptible sleep (exit_group, a fatal signal, or
	 * execve ending the other threads).
	 */
	bool group_exit;
	struct uthread *exec_thread; /* the thread in execve, if any */
	struct wait_queue_head thread_gone; /* execve waits here */
	/* The task of the last thread, until it is switched out and freed. */
	struct task_struct *last_task;
	struct mm_struct *mm;
	struct file *files[NR_OPEN];
	u64 fds_cloexec;
	bool zombie; /* exited, status below */
	bool kernel_child; /* spawned: process_wait() frees it */
	int exit_status; /* Linux's wait status */
	struct wait_queue_head child_exit; /* its wait4() sleeps here */
	u64 sig_shared; /* process-directed signals pending */
	struct sig_sender sig_from[NSIG]; /* of the process-directed ones */
	struct k_sigaction sigaction[NSIG];
	struct task_usage usage_dead; /* of its threads that exited */
	struct task_usage usage_children; /* of its children it reaped */
	/* ITIMER_REAL (alarm, setitimer): SIGALRM at real_timer's expiry. */
	struct timer_list real_timer;
	unsigned long it_real_interval; /* jiffies; 0: one shot */
	char comm[16];
};

extern spinlock_t process_lock;

/* A user range that lies below USER_ADDR_END. */
static inline bool access_ok(unsigned long addr, unsigned long len)
{
	return addr < USER_ADDR_END && len <= USER_ADDR_END - addr;
}

/* The current task's process, or NULL for a kthread. */
#define current_process() (current->proc)
/* The current task's user thread, or NULL for a kthread. */
#define current_thread() (current->uthread)

/*
 * Starts path (a program on the ISO, see exec_find()) as a new process,
 * child of no one unless parent: argv and envp are NULL-terminated kernel
 * strings. *out gets the process (which its creator must process_wait()
 * for); -ENOENT, -ENOEXEC (a message says why), -ENOMEM, -EAGAIN.
 */
int process_spawn(const char *path, const char *const *argv,
		  const char *const *envp, struct process **out);
/* Waits for p (spawned by the kernel) to exit; frees it; its status. */
int process_wait(struct process *p);
/*
 * The end of the current process with a Linux wait status (exit_group, a
 * fatal signal): every thread leaves, the last one makes the zombie.
 */
void __noreturn process_exit(int status);
/* The end of the current thread (exit): the process's if it is the last. */
void __noreturn thread_exit(int status);
/*
 * Sends sig to p, to be taken by one of its threads that does not block
 * it (kill()); pid 1 of init= drops those it has no handler for. The
 * __ variant with process_lock held.
 */
int process_kill(struct process *p, int sig);
int __process_kill(struct process *p, int sig, int code, int from);
/* Sends sig to thread t (tgkill(), a fault's, SIGPIPE), process_lock held. */
void __thread_kill(struct uthread *t, int sig, int code, int from);
/* A fault's signal to the current thread: it acts even if blocked. */
void thread_kill_forced(int sig);
/* The live process of pid, under process_lock; NULL if none. */
struct process *process_find(int pid);
/* The thread tid of p (any process if p is NULL), under process_lock. */
struct uthread *thread_find(struct process *p, int tid);
/* From the tick at now (ns): the current thread ran, in user mode or not. */
void account_user_tick(bool user, u64 now);
/* The current thread's, or its process's usage (RUSAGE_SELF). */
void thread_usage(struct uthread *t, struct task_usage *u);
void process_usage(struct process *p, struct task_usage *u);
/* The current process has a signal to act on its return to user mode. */
bool process_signal_pending(void);
/* Frees the zombies whose parent exited before them. */
void process_reap_orphans(void);
/* init=: the end of pid 1 powers off with a status saying how it ended. */
extern bool init_process_powers_off;
unsigned int nr_processes(void);

/*
 * A test hook (the userspace suite): the last thread of a process yields
 * right before it frees the address space, as a preemption there would.
 */
#ifdef CONFIG_USERSPACE_TEST
extern bool process_exit_yields;
static inline void process_exit_test_yield(void)
{
	if (READ_ONCE(process_exit_yields))
		yield();
}
#else
static inline void process_exit_test_yield(void)
{
}
#endif

/* init= on the command line (kernel/init_process.c). */
bool init_requested(void);
void __noreturn run_init_process(void);

/* Programs the kernel can exec: the ISO's /bin/ entries (module blobs). */
struct user_prog {
	const char *name;
	const void *data;
	size_t size;
};
/*
 * The program at path ("/bin/foo", "bin/foo", "foo"), unpacked from the
 * boot archive if it is first asked for (a sleeping call); NULL if there is
 * none or it cannot be unpacked (said).
 */
const struct user_prog *exec_find(const char *path);
unsigned int exec_prog_count(void);
/* Program i, for its name and size: its data is NULL while packed. */
const struct user_prog *exec_prog_get(unsigned int i);
/* A program of the boot medium: data is an ELF file or a gzip member. */
int exec_prog_add(const char *name, const void *data, size_t size);

/*
 * Loads the ELF image into mm (empty) and builds the initial stack with
 * argv, envp and auxv: *ip and *sp for start_thread(). -ENOEXEC with a
 * message naming the program and the fault, -ENOMEM, -E2BIG, -EFAULT.
 */
int exec_load(struct mm_struct *mm, const char *name, const void *image,
	      size_t size, const char *const *argv, const char *const *envp,
	      bool user_strings, unsigned long *ip, unsigned long *sp);

/* Address spaces (kernel/mm_user.c). */
struct mm_struct *mm_alloc(void);
/* Frees mm, which no CPU has loaded any more (WARNs and leaks if one has). */
void mm_free(struct mm_struct *mm);
struct mm_struct *mm_copy(struct mm_struct *mm);
/* Flushes the TLB of every CPU that has mm loaded, this one included. */
void mm_flush_tlb(struct mm_struct *mm);
/* Maps [start, end) anonymous zeroed pages with uprot: 0 or -ENOMEM. */
int mm_map_anon(struct mm_struct *mm, unsigned long start, unsigned long end,
		unsigned int uprot);
void mm_unmap(struct mm_struct *mm, unsigned long start, unsigned long end);

/* Files. */
struct file_ops {
	ssize_t (*read)(struct file *f, void __user *buf, size_t len);
	ssize_t (*write)(struct file *f, const void __user *buf, size_t len);
	void (*release)(struct file *f);
	unsigned int mode; /* st_mode's type bits */
	bool tty;
};

struct file {
	int refs; /* under process_lock */
	const struct file_ops *ops;
	void *priv;
	unsigned long pos;
	unsigned int flags; /* O_* as opened */
};

struct file *file_alloc(const struct file_ops *ops, void *priv,
			unsigned int flags);
void file_get(struct file *f);
void file_put(struct file *f);
struct file *console_file(unsigned int flags);
/* An fd of the current process, holding a reference, or NULL. */
struct file *fd_get(int fd);
/* Installs f (its reference) at the lowest free fd >= min: fd or -EMFILE. */
int fd_install(struct file *f, int min, bool cloexec);
/* /proc files by path: a new file, or -ENOENT. */
int procfs_open(const char *path, unsigned int flags, struct file **out);
/* Whether proc is mounted; whether path is a file or directory of it. */
bool procfs_mounted(void);
bool procfs_exists(const char *path);

/*
 * Futexes (kernel/futex.c): the waits of a thread that leaves (it is
 * woken on its way out, it takes itself off the queue), and the clear-tid
 * wake of thread exit. futex_wake() wakes up to nr waiters of the u32 at
 * uaddr of mm (shared: as FUTEX_WAKE without FUTEX_PRIVATE_FLAG).
 */
long sys_futex(unsigned long uaddr, unsigned long op, unsigned long val,
	       unsigned long utime, unsigned long uaddr2, unsigned long val3);
int futex_wake(struct mm_struct *mm, unsigned long uaddr, bool shared, int nr,
	       u32 bitset);
/* The waiters queued now, in every bucket (for the userspace suite). */
unsigned int futex_nr_queued(void);

#endif /* _LINUX_PROCESS_H */
