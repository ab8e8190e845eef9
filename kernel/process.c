// SPDX-License-Identifier: GPL-2.0
/*
 * Processes: creation from a program on the ISO (process_spawn()) or by
 * fork, execve, exit, wait4, kill and the default actions of signals.
 * See <linux/process.h> for the tree and the zombie rule.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/process.h>
#include <linux/sched.h>
#include <linux/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/syscalls.h>
#include <asm/reboot.h>
#include <asm/user.h>
#include <asm/user_pgtable.h>

DEFINE_SPINLOCK(process_lock);
static LIST_HEAD(orphans); /* processes no one waits for, by sibling */
static int next_pid;
static unsigned int live_processes;
/* Set by the boot's init= path: pid 1's end powers QEMU off. */
bool init_process_powers_off;

extern const char ret_from_kthread[];

unsigned int nr_processes(void)
{
	return READ_ONCE(live_processes);
}

/* Every process, for process_find(): a small fixed table. */
static struct process *table[PROCESS_MAX];

struct process *process_find(int pid)
{
	unsigned int i;

	for (i = 0; i < PROCESS_MAX; i++)
		if (table[i] && table[i]->pid == pid && !table[i]->zombie)
			return table[i];
	return NULL;
}

/* A new process in the table with a pid, or NULL (-EAGAIN: full). */
static struct process *process_alloc(struct process *parent)
{
	struct process *p;
	unsigned long flags;
	unsigned int i;

	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return NULL;
	INIT_LIST_HEAD(&p->children);
	INIT_LIST_HEAD(&p->sibling);
	init_waitqueue_head(&p->child_exit);
	spin_lock_irqsave(&process_lock, flags);
	for (i = 0; i < PROCESS_MAX && table[i]; i++)
		;
	if (i == PROCESS_MAX) {
		spin_unlock_irqrestore(&process_lock, flags);
		kfree(p);
		return NULL;
	}
	table[i] = p;
	live_processes++;
	p->pid = ++next_pid;
	p->parent = parent;
	p->ppid = parent ? parent->pid : 0;
	p->umask = parent ? parent->umask : 022; /* Linux's init's */
	list_add_tail(&p->sibling, parent ? &parent->children : &orphans);
	spin_unlock_irqrestore(&process_lock, flags);
	return p;
}

/* Frees a zombie that is off every list. */
static void process_free(struct process *p)
{
	unsigned long flags;
	unsigned int i;

	spin_lock_irqsave(&process_lock, flags);
	for (i = 0; i < PROCESS_MAX; i++)
		if (table[i] == p)
			table[i] = NULL;
	spin_unlock_irqrestore(&process_lock, flags);
	if (p->task)
		put_task_struct(p->task);
	kfree(p);
}

static int user_task_entry(void *unused)
{
	ret_to_user(task_pt_regs(current));
}

/*
 * The task that runs p: its first frame below the pt_regs at the top of
 * its stack, where the user registers go.
 */
static struct task_struct *user_task_create(struct process *p, unsigned int cpu)
{
	struct task_struct *t = task_create(user_task_entry, NULL, cpu);
	unsigned long *sp;

	if (!t)
		return NULL;
	sp = (unsigned long *)task_pt_regs(t) - 8;
	memset(sp, 0, 8 * sizeof(*sp));
	sp[3] = (unsigned long)user_task_entry;
	sp[6] = (unsigned long)ret_from_kthread;
	t->sp = (unsigned long)sp;
	strscpy(t->comm, p->comm, sizeof(t->comm));
	t->proc = p;
	p->task = t; /* the creator's reference, put by process_free() */
	return t;
}

static void set_comm(struct process *p, const char *path)
{
	const char *slash = strrchr(path, '/');

	strscpy(p->comm, slash ? slash + 1 : path, sizeof(p->comm));
}

static void files_close_all(struct process *p)
{
	unsigned int fd;

	for (fd = 0; fd < NR_OPEN; fd++) {
		if (p->files[fd])
			file_put(p->files[fd]);
		p->files[fd] = NULL;
	}
}

/*
 * Undoes process_alloc() for a process that never ran: its files and
 * memory, if it got them, then its slot and its place among the children.
 */
static void process_abort(struct process *p)
{
	files_close_all(p);
	if (p->mm)
		mm_free(p->mm);
	p->zombie = true;
	spin_lock_irq(&process_lock);
	list_del_init(&p->sibling);
	live_processes--;
	spin_unlock_irq(&process_lock);
	process_free(p);
}

int process_spawn(const char *path, const char *const *argv,
		  const char *const *envp, struct process **out)
{
	const struct user_prog *prog = exec_find(path);
	struct task_struct *t;
	unsigned long ip, sp;
	struct process *p;
	int ret, fd;

	if (!prog)
		return -ENOENT;
	process_reap_orphans();
	p = process_alloc(NULL);
	if (!p)
		return -EAGAIN;
	p->kernel_child = true;
	set_comm(p, prog->name);
	ret = -ENOMEM;
	p->mm = mm_alloc();
	if (!p->mm)
		goto out_free;
	ret = exec_load(p->mm, prog->name, prog->data, prog->size, argv, envp,
			false, &ip, &sp);
	if (ret)
		goto out_free;
	/* One /dev/console opened O_RDWR, as Linux gives init its fds. */
	for (fd = 0; fd < 3; fd++) {
		p->files[fd] = fd ? p->files[0] : console_file(2);
		if (!p->files[fd])
			goto out_free;
		if (fd)
			file_get(p->files[fd]);
	}
	t = user_task_create(p, current->cpu);
	if (!t)
		goto out_free;
	fpu_init_state(p->fpu);
	start_thread(task_pt_regs(t), ip, sp);
	*out = p;
	wake_up_process(t);
	return 0;

out_free:
	process_abort(p);
	return ret;
}

static bool reaped(struct process *p)
{
	return READ_ONCE(p->zombie);
}

/* For processes the kernel spawned (no parent): wait, free, status. */
int process_wait(struct process *p)
{
	int status;

	wait_event(p->child_exit, reaped(p));
	status = p->exit_status;
	spin_lock_irq(&process_lock);
	list_del_init(&p->sibling);
	spin_unlock_irq(&process_lock);
	task_release_stack(p->task);
	process_free(p);
	return status;
}

/* QEMU statuses for the end of pid 1 (init=): see Documentation/userspace.rst.
 */
#define QEMU_EXIT_INIT_EXITED 0x20 /* + exit code & 0x1f */
#define QEMU_EXIT_INIT_KILLED 0x40 /* + signal */

static void __noreturn init_ended(int status)
{
	if (status & 0x7f) {
		pr_emerg(
			"Kernel panic - not syncing: Attempted to kill init! exitcode=0x%08x (killed by signal %d)\n",
			status, status & 0x7f);
		machine_power_off(QEMU_EXIT_INIT_KILLED + (status & 0x3f));
	}
	pr_emerg(
		"Kernel panic - not syncing: Attempted to kill init! exitcode=0x%08x (exit code %d)\n",
		status, (status >> 8) & 0xff);
	machine_power_off(QEMU_EXIT_INIT_EXITED + ((status >> 8) & 0x1f));
}

/*
 * 1. close the files, drop the address space (on the kernel's tables);
 * 2. children become orphans (a zombie one is freed);
 * 3. become a zombie with the status, the task no longer a process's,
 *    and wake the parent (or free itself if it has none); 4. die.
 */
void __noreturn process_exit(int status)
{
	struct process *p = current_process(), *c, *n;
	struct wait_queue_head *wq;

	if (p->pid == 1 && init_process_powers_off)
		init_ended(status);
	files_close_all(p);
	switch_to_kernel_mm();
	mm_free(p->mm);
	p->mm = NULL;

	spin_lock_irq(&process_lock);
	list_for_each_entry_safe(c, n, &p->children, sibling) {
		list_del_init(&c->sibling);
		c->parent = NULL;
		WRITE_ONCE(c->ppid, 0);
		list_add_tail(&c->sibling, &orphans);
	}
	p->exit_status = status;
	current->proc = NULL; /* from here on switched like a kthread */
	wq = p->parent ? &p->parent->child_exit : &p->child_exit;
	WRITE_ONCE(p->zombie, true);
	live_processes--;
	spin_unlock_irq(&process_lock);
	wake_up(wq);
	do_exit();
}

/*
 * Frees the zombies no one will wait for (their parent exited first):
 * from process context, before a new process and in leak checks.
 */
void process_reap_orphans(void)
{
	struct process *c, *n, *found;

	do {
		found = NULL;
		spin_lock_irq(&process_lock);
		list_for_each_entry_safe(c, n, &orphans, sibling) {
			if (c->zombie && !c->kernel_child) {
				list_del_init(&c->sibling);
				found = c;
				break;
			}
		}
		spin_unlock_irq(&process_lock);
		if (found) {
			task_release_stack(found->task);
			process_free(found);
		}
	} while (found);
}

static bool sig_default_ignored(int sig)
{
	return sig == SIGCHLD || sig == SIGCONT || sig == 23 || sig == 28;
}

int process_kill(struct process *p, int sig)
{
	if (sig < 1 || sig > NSIG)
		return -EINVAL;
	/*
	 * As Linux's init (SIGNAL_UNKILLABLE): pid 1 of init= drops the
	 * signals it has no handler for, SIGKILL too; only its own faults
	 * (process_kill_forced()) kill it.
	 */
	if (p->pid == 1 && init_process_powers_off &&
	    p->sigaction[sig - 1].handler == SIG_DFL)
		return 0;
	return process_kill_forced(p, sig);
}

int process_kill_forced(struct process *p, int sig)
{
	__atomic_fetch_or(&p->sig_pending, 1ULL << (sig - 1), __ATOMIC_RELAXED);
	WRITE_ONCE(p->exit_work, 1);
	if (p->task)
		wake_up_process(p->task);
	return 0;
}

/*
 * A signal is pending that will act when the current process returns to
 * user mode (not blocked, not ignored): its sleeps in pipes and wait4()
 * end with -EINTR so that it does.
 */
bool process_signal_pending(void)
{
	struct process *p = current_process();
	u64 pending = READ_ONCE(p->sig_pending) & ~p->sig_blocked;
	int sig;

	pending |= READ_ONCE(p->sig_pending) & (1ULL << (SIGKILL - 1));
	while (pending) {
		sig = __builtin_ctzll(pending) + 1;
		pending &= pending - 1;
		if (sig == SIGKILL ||
		    (p->sigaction[sig - 1].handler != SIG_IGN &&
		     !(p->sigaction[sig - 1].handler == SIG_DFL &&
		       sig_default_ignored(sig))))
			return true;
	}
	return false;
}

/*
 * A system call that a signal interrupted (-ERESTARTSYS): made again when
 * no handler runs or the handler has SA_RESTART, else -EINTR.
 */
static void syscall_restart(struct pt_regs *regs, const struct k_sigaction *ka)
{
	if (regs->vector != SYSCALL_VECTOR || (long)regs->error_code < 0 ||
	    (long)regs->rax != -ERESTARTSYS)
		return;
	if (ka && !(ka->flags & SA_RESTART)) {
		regs->rax = -EINTR;
		return;
	}
	regs->rax = regs->error_code;
	regs->ip -= 2; /* the SYSCALL instruction */
}

void signal_force_segv(void)
{
	process_exit(SIGSEGV);
}

/*
 * The lowest pending, unblocked signal acts: ignored, the default action
 * (terminate: SIGSTOP's stop is not supported), or its handler, entered
 * through a frame on the user stack with the signal (and sa_mask) blocked
 * until rt_sigreturn. One handler frame per return to user mode.
 */
void signal_deliver(struct pt_regs *regs)
{
	struct process *p = current_process();
	const u64 unblockable = (1ULL << (SIGKILL - 1)) |
				(1ULL << (SIGSTOP - 1));
	struct k_sigaction *ka, act;
	u64 pending, old;
	int sig;

	for (;;) {
		pending = READ_ONCE(p->sig_pending) &
			  (~p->sig_blocked | unblockable);
		if (!pending)
			break;
		sig = __builtin_ctzll(pending) + 1;
		__atomic_fetch_and(&p->sig_pending, ~(1ULL << (sig - 1)),
				   __ATOMIC_RELAXED);
		ka = &p->sigaction[sig - 1];
		if (sig == SIGKILL || sig == SIGSTOP)
			process_exit(sig);
		if (ka->handler == SIG_IGN ||
		    (ka->handler == SIG_DFL && sig_default_ignored(sig)))
			continue;
		if (ka->handler == SIG_DFL)
			process_exit(sig);
		act = *ka;
		if (act.flags & SA_RESETHAND)
			ka->handler = SIG_DFL;
		syscall_restart(regs, &act);
		old = p->sig_blocked;
		if (arch_setup_rt_frame(sig, &act, old, regs))
			signal_force_segv();
		p->sig_blocked |= act.mask;
		if (!(act.flags & SA_NODEFER))
			p->sig_blocked |= 1ULL << (sig - 1);
		p->sig_blocked &= ~unblockable;
		return;
	}
	syscall_restart(regs, NULL);
}

/* wait4's status encoding: code << 8 for an exit, the signal for a kill. */
long sys_exit_group(unsigned long code)
{
	process_exit((code & 0xff) << 8);
}

/* Linux's: WNOHANG acts; WUNTRACED, WCONTINUED, __WALL... are accepted. */
#define WNOHANG 0x00000001
#define WAIT_OPTIONS 0xe000000bUL

long sys_wait4(unsigned long upid, unsigned long ustatus, unsigned long options,
	       unsigned long rusage)
{
	struct process *p = current_process(), *c, *found;
	int pid = (int)upid, status;
	struct wait_queue_entry w = { .task = NULL };
	bool any;

	if (options & ~WAIT_OPTIONS)
		return -EINVAL;
	for (;;) {
		prepare_to_wait(&p->child_exit, &w, TASK_INTERRUPTIBLE);
		found = NULL;
		any = false;
		spin_lock_irq(&process_lock);
		list_for_each_entry(c, &p->children, sibling) {
			if (pid > 0 && c->pid != pid)
				continue;
			any = true;
			if (c->zombie) {
				found = c;
				list_del_init(&c->sibling);
				break;
			}
		}
		spin_unlock_irq(&process_lock);
		if (found || !any || (options & WNOHANG))
			break;
		if (process_signal_pending()) {
			finish_wait(&p->child_exit, &w);
			return -ERESTARTSYS;
		}
		schedule();
	}
	finish_wait(&p->child_exit, &w);
	if (!found)
		return any ? 0 : -ECHILD;
	status = found->exit_status;
	pid = found->pid;
	task_release_stack(found->task);
	process_free(found);
	if (ustatus &&
	    copy_to_user((int __user *)ustatus, &status, sizeof(status)))
		return -EFAULT;
	if (rusage && clear_user((void __user *)rusage, 144))
		return -EFAULT;
	return pid;
}

long sys_kill(unsigned long upid, unsigned long sig)
{
	struct process *p;
	int pid = (int)upid, ret;

	if (sig > NSIG)
		return -EINVAL;
	if (pid <= 0)
		return -EINVAL; /* no process groups */
	spin_lock_irq(&process_lock);
	p = process_find(pid);
	ret = !p ? -ESRCH : sig ? process_kill(p, sig) : 0;
	spin_unlock_irq(&process_lock);
	return ret;
}

/* A process is its one thread: tid is the pid (glibc's raise(), abort()). */
long sys_tgkill(unsigned long tgid, unsigned long tid, unsigned long sig)
{
	if ((int)tgid <= 0 || (int)tid <= 0)
		return -EINVAL;
	if (tgid != tid)
		return sig > NSIG ? -EINVAL : -ESRCH;
	return sys_kill(tid, sig);
}

long sys_tkill(unsigned long tid, unsigned long sig)
{
	if ((int)tid <= 0)
		return -EINVAL;
	return sys_kill(tid, sig);
}

#define CLONE_VM 0x00000100
#define CLONE_FS 0x00000200
#define CLONE_FILES 0x00000400
#define CLONE_SIGHAND 0x00000800
#define CLONE_VFORK 0x00004000
#define CLONE_THREAD 0x00010000
#define CLONE_SETTLS 0x00080000
#define CLONE_PARENT_SETTID 0x00100000
#define CLONE_CHILD_CLEARTID 0x00200000
#define CLONE_CHILD_SETTID 0x01000000

/* Writes to user address va of mm, loaded or not: 0 or -EFAULT. */
static int mm_write(struct mm_struct *mm, unsigned long va, const void *src,
		    size_t len)
{
	unsigned int uprot;
	phys_addr_t pa;

	if ((va & (PAGE_SIZE - 1)) + len > PAGE_SIZE)
		return -EFAULT;
	pa = user_lookup(mm->pgd, va & PAGE_MASK, &uprot);
	if (!pa || !(uprot & UPROT_WRITE))
		return -EFAULT;
	memcpy((u8 *)__va(pa) + (va & (PAGE_SIZE - 1)), src, len);
	return 0;
}

/* fork, vfork and clone without CLONE_VM: a copy of the caller. */
static long do_fork(unsigned long flags, unsigned long newsp,
		    unsigned long parent_tid, unsigned long child_tid,
		    unsigned long tls)
{
	struct process *parent = current_process(), *p;
	struct pt_regs *regs;
	struct task_struct *t;
	unsigned int fd;
	long ret;

	if (flags &
	    (CLONE_VM | CLONE_THREAD | CLONE_SIGHAND | CLONE_FILES | CLONE_FS))
		return -EINVAL; /* no threads */
	process_reap_orphans();
	p = process_alloc(parent);
	if (!p)
		return -EAGAIN;
	memcpy(p->comm, parent->comm, sizeof(p->comm));
	ret = -ENOMEM;
	p->mm = mm_copy(parent->mm);
	if (!p->mm)
		goto out_free;
	ret = -EFAULT;
	if ((flags & CLONE_CHILD_SETTID) &&
	    mm_write(p->mm, child_tid, &p->pid, sizeof(int)))
		goto out_free;
	if ((flags & CLONE_PARENT_SETTID) &&
	    copy_to_user((int __user *)parent_tid, &p->pid, sizeof(int)))
		goto out_free;
	ret = -ENOMEM;
	t = user_task_create(p, current->cpu);
	if (!t)
		goto out_free;
	spin_lock_irq(&process_lock);
	for (fd = 0; fd < NR_OPEN; fd++) {
		p->files[fd] = parent->files[fd];
		if (p->files[fd])
			p->files[fd]->refs++;
	}
	spin_unlock_irq(&process_lock);
	p->fds_cloexec = parent->fds_cloexec;
	memcpy(p->sigaction, parent->sigaction, sizeof(p->sigaction));
	p->sig_blocked = parent->sig_blocked;
	p->fsbase = flags & CLONE_SETTLS ? tls : parent->fsbase;
	if (flags & CLONE_CHILD_CLEARTID)
		p->clear_child_tid = child_tid;
	asm volatile("fxsaveq %0" : "=m"(p->fpu));
	regs = task_pt_regs(t);
	*regs = *current_user_regs();
	regs->rax = 0;
	if (newsp)
		regs->sp = newsp;
	wake_up_process(t);
	return p->pid;

out_free:
	process_abort(p);
	return ret;
}

long sys_fork(void)
{
	return do_fork(SIGCHLD, 0, 0, 0, 0);
}

long sys_clone(unsigned long flags, unsigned long newsp, unsigned long ptid,
	       unsigned long ctid, unsigned long tls)
{
	return do_fork(flags & ~(0xffUL | CLONE_VFORK), newsp, ptid, ctid, tls);
}

#define PATH_MAX 4096

long sys_execve(unsigned long upath, unsigned long uargv, unsigned long uenvp)
{
	struct process *p = current_process();
	const struct user_prog *prog;
	struct mm_struct *mm, *old;
	unsigned long ip, sp;
	char path[128];
	unsigned int fd, i;
	long ret;

	ret = strncpy_from_user(path, (const char __user *)upath, sizeof(path));
	if (ret < 0)
		return ret;
	if (ret == sizeof(path))
		return -ENAMETOOLONG;
	prog = exec_find(path);
	if (!prog)
		return -ENOENT;
	mm = mm_alloc();
	if (!mm)
		return -ENOMEM;
	ret = exec_load(mm, prog->name, prog->data, prog->size,
			(const char *const *)uargv, (const char *const *)uenvp,
			true, &ip, &sp);
	if (ret) {
		mm_free(mm);
		return ret;
	}
	/* The point of no return: the old image goes. */
	old = p->mm;
	p->mm = mm;
	write_cr3(mm->pgd);
	mm_free(old);
	for (fd = 0; fd < NR_OPEN; fd++) {
		if ((p->fds_cloexec & (1ULL << fd)) && p->files[fd]) {
			file_put(p->files[fd]);
			p->files[fd] = NULL;
		}
	}
	p->fds_cloexec = 0;
	for (i = 0; i < NSIG; i++)
		if (p->sigaction[i].handler > SIG_IGN)
			p->sigaction[i] = (struct k_sigaction){};
	set_comm(p, prog->name);
	strscpy(current->comm, p->comm, sizeof(current->comm));
	arch_set_fsbase(0);
	fpu_init_state(p->fpu);
	asm volatile("fxrstorq %0" : : "m"(p->fpu));
	start_thread(current_user_regs(), ip, sp);
	p->regs_rewritten = true;
	WRITE_ONCE(p->exit_work, 1);
	return 0;
}
