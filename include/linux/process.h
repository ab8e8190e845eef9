/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_PROCESS_H
#define _LINUX_PROCESS_H

/*
 * User processes (Documentation/userspace.rst): a task running a program
 * in ring 3 in its own address space, with Linux's x86-64 system calls.
 *
 * Each process has one task (no threads), whose task_struct->proc points
 * here. Processes form a tree under process_lock: a parent's children
 * list holds its live and zombie children; an orphan goes to no one and
 * is reaped by itself on exit. A process that exits becomes a zombie
 * holding its status until its parent's wait4() frees it.
 */
#include <linux/list.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/uaccess.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <asm/user_pgtable.h>

#define NR_OPEN 64 /* fds per process */
#define PROCESS_MAX 16 /* live processes at once: fork gets -EAGAIN */
#define USER_STACK_TOP 0x00007ffffffde000UL
#define USER_STACK_SIZE (128 * 1024UL)
#define USER_MMAP_TOP 0x00007f0000000000UL
#define USER_PIE_BASE 0x0000555555554000UL
#define USER_MAP_MAX (64UL << 20) /* bytes one mmap/brk may ask at once */

struct task_struct;
struct file;

/* An address space: a page table and where brk and mmap stand. */
struct mm_struct {
	phys_addr_t pgd;
	unsigned long start_brk, brk; /* the heap: [start_brk, brk) */
	unsigned long mmap_next; /* mmap hands out below this */
	unsigned long nr_pages; /* user pages mapped */
};

struct k_sigaction {
	unsigned long handler; /* SIG_DFL (0), SIG_IGN (1) or a function */
	unsigned long flags;
	unsigned long restorer;
	u64 mask;
};

#define NSIG 64

struct process {
	int pid;
	struct process *parent; /* NULL: none waits for it */
	int ppid; /* the parent's pid, 0 without one (getppid) */
	unsigned int umask; /* stored for umask(), inherited */
	struct list_head children; /* of struct process, by sibling */
	struct list_head sibling;
	struct task_struct *task;
	struct mm_struct *mm;
	struct file *files[NR_OPEN];
	u64 fds_cloexec;
	bool zombie; /* exited, status below */
	bool kernel_child; /* spawned: process_wait() frees it */
	bool regs_rewritten; /* execve: return with IRET, all registers */
	/* Non-zero: a system call returns the slow way (a signal, execve). */
	int exit_work;
	int exit_status; /* Linux's wait status */
	struct wait_queue_head child_exit; /* its wait4() sleeps here */
	u64 sig_pending; /* bit n-1: signal n */
	u64 sig_blocked;
	struct k_sigaction sigaction[NSIG];
	unsigned long fsbase;
	unsigned long clear_child_tid;
	struct work_struct migrate; /* sched_setaffinity()'s move */
	unsigned int migrate_cpu;
	u8 fpu[512] __aligned(16); /* fxsave image while switched out */
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
/* The end of the current process with a Linux wait status. */
void __noreturn process_exit(int status);
/* Sends sig to p: SIGKILL, SIGTERM, SIGSEGV... (default actions only). */
int process_kill(struct process *p, int sig);
/* The same for a fault's signal: it reaches pid 1 too. */
int process_kill_forced(struct process *p, int sig);
struct process *process_find(int pid);
/* The current process has a signal to act on its return to user mode. */
bool process_signal_pending(void);
/* Frees the zombies whose parent exited before them. */
void process_reap_orphans(void);
/* init=: the end of pid 1 powers off with a status saying how it ended. */
extern bool init_process_powers_off;
unsigned int nr_processes(void);

/* init= on the command line (kernel/init_process.c). */
bool init_requested(void);
void __noreturn run_init_process(void);

/* Programs the kernel can exec: the ISO's /bin/ entries (module blobs). */
struct user_prog {
	const char *name;
	const void *data;
	size_t size;
};
const struct user_prog *exec_find(const char *path);
unsigned int exec_prog_count(void);
const struct user_prog *exec_prog_get(unsigned int i);
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
void mm_free(struct mm_struct *mm);
struct mm_struct *mm_copy(struct mm_struct *mm);
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

#endif /* _LINUX_PROCESS_H */
