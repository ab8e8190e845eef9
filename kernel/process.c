// SPDX-License-Identifier: GPL-2.0
/*
 * Processes and their threads: creation from a program on the ISO
 * (process_spawn()) or by fork and clone, execve, exit and exit_group,
 * wait4, kill and tgkill, the default actions of signals, the interval
 * timers and the usage counts. See <linux/process.h> for the tree, the
 * thread group and the zombie rule.
 *
 * The end of a thread, in this order (thread_exit()): the clear-tid wake;
 * the thread detaches itself from the process (its task is a kthread's
 * from then on: the kernel's page tables, no user state switched), with
 * preemption off so that no switch sees it half way; then it leaves the
 * thread list. The last thread to leave frees the address space, which
 * no CPU can have loaded any more: every thread detached before leaving.
 */
#include <linux/kernel.h>
#include <linux/jiffies.h>
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
static unsigned int live_processes, live_threads;
/* Set by the boot's init= path: pid 1's end powers QEMU off. */
bool init_process_powers_off;
#ifdef CONFIG_USERSPACE_TEST
bool process_exit_yields;
#endif

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

static struct uthread *__thread_find(struct process *p, int tid)
{
	struct uthread *t;

	list_for_each_entry(t, &p->threads, node)
		if (t->tid == tid)
			return t;
	return NULL;
}

struct uthread *thread_find(struct process *p, int tid)
{
	struct uthread *t = NULL;
	unsigned int i;

	if (p)
		return __thread_find(p, tid);
	for (i = 0; i < PROCESS_MAX && !t; i++)
		if (table[i] && !table[i]->zombie)
			t = __thread_find(table[i], tid);
	return t;
}

static void it_real_fire(struct timer_list *timer);

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
	INIT_LIST_HEAD(&p->threads);
	init_waitqueue_head(&p->child_exit);
	init_waitqueue_head(&p->thread_gone);
	timer_setup(&p->real_timer, it_real_fire, 0);
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

/* Frees a zombie that is off every list, once its last task is freed. */
static void process_free(struct process *p)
{
	unsigned long flags;
	unsigned int i;

	if (p->last_task) {
		task_release_stack(p->last_task);
		put_task_struct(p->last_task);
	}
	spin_lock_irqsave(&process_lock, flags);
	for (i = 0; i < PROCESS_MAX; i++)
		if (table[i] == p)
			table[i] = NULL;
	spin_unlock_irqrestore(&process_lock, flags);
	kfree(p);
}

/*
 * A thread's first code: CLONE_CHILD_SETTID's store (whose fault, as in
 * Linux, is ignored), then user mode.
 */
static int user_task_entry(void *unused)
{
	struct uthread *t = current_thread();

	if (t->set_child_tid)
		(void)copy_to_user((int __user *)t->set_child_tid, &t->tid,
				   sizeof(int));
	ret_to_user(task_pt_regs(current));
}

/*
 * A thread of p that has not run: its task's first frame below the
 * pt_regs at the top of its stack, where the user registers go. Not on
 * p's list yet (thread_attach()). NULL: no memory.
 */
static struct uthread *thread_create(struct process *p, unsigned int cpu)
{
	struct uthread *t = kzalloc(sizeof(*t), GFP_KERNEL);
	struct task_struct *task;
	unsigned long *sp;

	if (!t)
		return NULL;
	task = task_create(user_task_entry, NULL, cpu);
	if (!task) {
		kfree(t);
		return NULL;
	}
	sp = (unsigned long *)task_pt_regs(task) - 8;
	memset(sp, 0, 8 * sizeof(*sp));
	sp[3] = (unsigned long)user_task_entry;
	sp[6] = (unsigned long)ret_from_kthread;
	task->sp = (unsigned long)sp;
	strscpy(task->comm, p->comm, sizeof(task->comm));
	task->proc = p;
	task->uthread = t;
	t->task = task; /* the creator's reference, put by thread_exit() */
	t->proc = p;
	INIT_LIST_HEAD(&t->node);
	return t;
}

/* Undoes thread_create() for a thread that never ran nor was attached. */
static void thread_discard(struct uthread *t)
{
	WRITE_ONCE(t->task->state, TASK_DEAD); /* never ran: not on a CPU */
	task_release_stack(t->task);
	put_task_struct(t->task);
	put_task_struct(t->task); /* the reaper's, which never sees it */
	kfree(t);
}

/*
 * Puts t on p's list with its tid (the pid for the first thread): 0, or
 * -EAGAIN if THREAD_MAX threads live or p is on its way out.
 */
static int thread_attach(struct process *p, struct uthread *t)
{
	int ret = 0;

	spin_lock_irq(&process_lock);
	if (live_threads >= THREAD_MAX || p->group_exit) {
		ret = -EAGAIN;
	} else {
		t->tid = list_empty(&p->threads) ? p->pid : ++next_pid;
		list_add_tail(&t->node, &p->threads);
		p->nr_threads++;
		live_threads++;
	}
	spin_unlock_irq(&process_lock);
	return ret;
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
	unsigned long ip, sp;
	struct uthread *t;
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
	ret = -ENOMEM;
	for (fd = 0; fd < 3; fd++) {
		p->files[fd] = fd ? p->files[0] : console_file(2);
		if (!p->files[fd])
			goto out_free;
		if (fd)
			file_get(p->files[fd]);
	}
	t = thread_create(p, current->cpu);
	if (!t)
		goto out_free;
	/* The spawner's CPUs, as a fork's child has its parent's. */
	t->task->cpus_allowed = current->cpus_allowed;
	ret = thread_attach(p, t);
	if (ret) {
		thread_discard(t);
		goto out_free;
	}
	fpu_init_state(t->fpu);
	start_thread(task_pt_regs(t->task), ip, sp);
	*out = p;
	wake_up_process(t->task);
	return 0;

out_free:
	process_abort(p);
	return ret;
}

static bool reaped(struct process *p)
{
	return READ_ONCE(p->zombie);
}

/*
 * For processes the kernel spawned (no parent): wait, free, status. The
 * process is freed once its last task has switched out (off its page
 * tables since before the zombie) and its stack is freed.
 */
int process_wait(struct process *p)
{
	int status;

	wait_event(p->child_exit, reaped(p));
	status = p->exit_status;
	spin_lock_irq(&process_lock);
	list_del_init(&p->sibling);
	spin_unlock_irq(&process_lock);
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

/* t's thread must act: at its return to user mode, or out of its sleep. */
static void thread_kick(struct uthread *t)
{
	WRITE_ONCE(t->exit_work, 1);
	wake_up_process(t->task);
	kick_process(t->task);
}

static void usage_add(struct task_usage *sum, const struct task_usage *u)
{
	sum->utime_ns += u->utime_ns;
	sum->stime_ns += u->stime_ns;
	sum->nvcsw += u->nvcsw;
	sum->nivcsw += u->nivcsw;
	sum->maxrss_kb = max(sum->maxrss_kb, u->maxrss_kb);
}

void thread_usage(struct uthread *t, struct task_usage *u)
{
	*u = (struct task_usage){
		.utime_ns = READ_ONCE(t->utime_ns),
		.stime_ns = READ_ONCE(t->stime_ns),
		.nvcsw = READ_ONCE(t->task->nvcsw),
		.nivcsw = READ_ONCE(t->task->nivcsw),
	};
	if (t->proc->mm)
		u->maxrss_kb = READ_ONCE(t->proc->mm->hiwater_pages) * 4;
}

/* The process's own: its live threads' and its dead threads'. */
void process_usage(struct process *p, struct task_usage *u)
{
	struct task_usage one;
	struct uthread *t;

	spin_lock_irq(&process_lock);
	*u = p->usage_dead;
	list_for_each_entry(t, &p->threads, node) {
		thread_usage(t, &one);
		usage_add(u, &one);
	}
	spin_unlock_irq(&process_lock);
}

/*
 * The current task stops being a thread of its process: from now on it
 * is switched as a kthread is, on the kernel's page tables.
 */
static void thread_detach(void)
{
	preempt_disable();
	current->proc = NULL;
	current->uthread = NULL;
	arch_user_detach();
	preempt_enable();
}

/* The last thread left: p's files, memory and timer go, p is a zombie. */
static void __noreturn process_end(struct process *p)
{
	struct process *c, *n;
	struct wait_queue_head *wq;

	spin_lock_irq(&process_lock);
	p->it_real_interval = 0; /* it_real_fire() re-arms no more */
	spin_unlock_irq(&process_lock);
	del_timer_sync(&p->real_timer);
	files_close_all(p);
	p->usage_dead.maxrss_kb =
		max(p->usage_dead.maxrss_kb, p->mm->hiwater_pages * 4);
	process_exit_test_yield();
	mm_free(p->mm);
	p->mm = NULL;

	spin_lock_irq(&process_lock);
	list_for_each_entry_safe(c, n, &p->children, sibling) {
		list_del_init(&c->sibling);
		c->parent = NULL;
		WRITE_ONCE(c->ppid, 0);
		list_add_tail(&c->sibling, &orphans);
	}
	wq = p->parent ? &p->parent->child_exit : &p->child_exit;
	WRITE_ONCE(p->zombie, true);
	live_processes--;
	spin_unlock_irq(&process_lock);
	wake_up(wq);
	do_exit();
}

/*
 * 1. the clear-tid store and wake, while other threads use the memory;
 * 2. the thread's usage joins the process's; 3. detach (thread_detach());
 * 4. off the list: the last thread makes the zombie (process_end()),
 *    another one wakes an execve waiting for it, then dies.
 */
void __noreturn thread_exit(int status)
{
	struct uthread *t = current_thread();
	struct process *p = t->proc;
	struct task_usage u;
	int zero = 0;
	bool last;

	if (p->pid == 1 && init_process_powers_off &&
	    READ_ONCE(p->nr_threads) == 1)
		init_ended(READ_ONCE(p->group_exit) ? p->exit_status : status);
	if (t->clear_child_tid && READ_ONCE(p->nr_threads) > 1 &&
	    !copy_to_user((int __user *)t->clear_child_tid, &zero,
			  sizeof(zero)))
		futex_wake(p->mm, t->clear_child_tid, true, 1, ~0U);
	thread_usage(t, &u);
	thread_detach();

	spin_lock_irq(&process_lock);
	usage_add(&p->usage_dead, &u);
	list_del_init(&t->node);
	live_threads--;
	last = !--p->nr_threads;
	if (last && !p->group_exit)
		p->exit_status = status;
	if (last)
		p->last_task = current; /* t's reference moves there */
	else
		wake_up(&p->thread_gone); /* p may go once the lock is free */
	spin_unlock_irq(&process_lock);
	kfree(t);
	if (last)
		process_end(p);
	put_task_struct(current); /* the reaper holds its own */
	do_exit();
}

/* Every thread of p but the current one leaves. process_lock held. */
static void group_kick_others(struct process *p)
{
	struct uthread *t;

	list_for_each_entry(t, &p->threads, node)
		if (t != current_thread())
			thread_kick(t);
}

void __noreturn process_exit(int status)
{
	struct process *p = current_process();

	spin_lock_irq(&process_lock);
	if (!p->group_exit || p->exec_thread) {
		p->group_exit = true;
		p->exec_thread = NULL; /* an execve under way dies too */
		p->exit_status = status;
		group_kick_others(p);
		wake_up(&p->thread_gone);
	}
	spin_unlock_irq(&process_lock);
	thread_exit(status);
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
		if (found)
			process_free(found);
	} while (found);
}

static bool sig_default_ignored(int sig)
{
	return sig == SIGCHLD || sig == SIGCONT || sig == 23 || sig == 28;
}

#define SIG_BIT(sig) (1ULL << ((sig)-1))
#define SIG_UNBLOCKABLE (SIG_BIT(SIGKILL) | SIG_BIT(SIGSTOP))

void __thread_kill(struct uthread *t, int sig, int code, int from)
{
	t->sig_from[sig - 1] = (struct sig_sender){ code, from };
	__atomic_fetch_or(&t->sig_pending, SIG_BIT(sig), __ATOMIC_RELAXED);
	thread_kick(t);
}

/*
 * A process-directed signal: pending for the process, taken by the first
 * of its threads that does not block it (the current one first), which is
 * kicked; if every thread blocks it, it waits for one to unblock it
 * (rt_sigprocmask sets that thread's exit_work).
 */
int __process_kill(struct process *p, int sig, int code, int from)
{
	struct uthread *t, *pick = NULL;

	if (sig < 1 || sig > NSIG)
		return -EINVAL;
	/*
	 * As Linux's init (SIGNAL_UNKILLABLE): pid 1 of init= drops the
	 * signals it has no handler for, SIGKILL too; only its own faults
	 * (thread_kill_forced()) kill it.
	 */
	if (p->pid == 1 && init_process_powers_off &&
	    p->sigaction[sig - 1].handler == SIG_DFL)
		return 0;
	p->sig_from[sig - 1] = (struct sig_sender){ code, from };
	__atomic_fetch_or(&p->sig_shared, SIG_BIT(sig), __ATOMIC_RELAXED);
	list_for_each_entry(t, &p->threads, node) {
		if ((t->sig_blocked & SIG_BIT(sig)) &&
		    !(SIG_UNBLOCKABLE & SIG_BIT(sig)))
			continue;
		if (!pick || t == current_thread())
			pick = t;
	}
	if (pick)
		thread_kick(pick);
	return 0;
}

int process_kill(struct process *p, int sig)
{
	struct process *me = current_process();
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&process_lock, flags);
	ret = __process_kill(p, sig, SI_KERNEL, me ? me->pid : 0);
	spin_unlock_irqrestore(&process_lock, flags);
	return ret;
}

void thread_kill_forced(int sig)
{
	struct uthread *t = current_thread();
	struct process *p = t->proc;

	/* As Linux's force_sig(): a blocked or ignored fault still acts. */
	if (p->sigaction[sig - 1].handler == SIG_IGN ||
	    (t->sig_blocked & SIG_BIT(sig))) {
		p->sigaction[sig - 1].handler = SIG_DFL;
		t->sig_blocked &= ~SIG_BIT(sig);
	}
	t->sig_from[sig - 1] = (struct sig_sender){ SI_KERNEL, 0 };
	__atomic_fetch_or(&t->sig_pending, SIG_BIT(sig), __ATOMIC_RELAXED);
	WRITE_ONCE(t->exit_work, 1);
}

/* The thread must leave: its process is ending, or execve ends it. */
static bool thread_must_exit(struct uthread *t)
{
	struct process *p = t->proc;

	return unlikely(READ_ONCE(p->group_exit)) &&
	       READ_ONCE(p->exec_thread) != t;
}

/*
 * A signal is pending that will act when the current thread returns to
 * user mode (not blocked, not ignored), or the thread must leave: its
 * sleeps in pipes, futexes and wait4() end with -ERESTARTSYS so that it
 * does.
 */
static bool __process_signal_pending(struct uthread *t, u64 all)
{
	struct process *p = t->proc;
	u64 pending = (all & ~t->sig_blocked) | (all & SIG_BIT(SIGKILL));
	int sig;

	if (thread_must_exit(t))
		return true;
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

bool process_signal_pending(void)
{
	struct uthread *t = current_thread();
	struct process *p = t->proc;
	u64 all = READ_ONCE(t->sig_pending) | READ_ONCE(p->sig_shared);

	if (likely(!all) && likely(!READ_ONCE(p->group_exit)))
		return false;
	return __process_signal_pending(t, all);
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
 * Takes the lowest pending, unblocked signal of the current thread, its
 * own before its process's: the number and who sent it, or 0.
 */
static int signal_dequeue(struct uthread *t, struct sig_sender *from)
{
	struct process *p = t->proc;
	u64 mine, shared, allowed = ~t->sig_blocked | SIG_UNBLOCKABLE;
	int sig;

	for (;;) {
		mine = READ_ONCE(t->sig_pending) & allowed;
		shared = READ_ONCE(p->sig_shared) & allowed;
		if (!mine && !shared)
			return 0;
		if (mine) {
			sig = __builtin_ctzll(mine) + 1;
			*from = t->sig_from[sig - 1];
			__atomic_fetch_and(&t->sig_pending, ~SIG_BIT(sig),
					   __ATOMIC_RELAXED);
			return sig;
		}
		sig = __builtin_ctzll(shared) + 1;
		*from = p->sig_from[sig - 1];
		/* Another thread may have taken it meanwhile. */
		if (__atomic_fetch_and(&p->sig_shared, ~SIG_BIT(sig),
				       __ATOMIC_RELAXED) &
		    SIG_BIT(sig))
			return sig;
	}
}

/*
 * The thread leaves if its process is ending. Then the lowest pending,
 * unblocked signal acts: ignored, the default action (terminate the
 * process: SIGSTOP's stop is not supported), or its handler, entered
 * through a frame on the user stack with the signal (and sa_mask) blocked
 * until rt_sigreturn. One handler frame per return to user mode.
 */
void signal_deliver(struct pt_regs *regs)
{
	struct uthread *t = current_thread();
	struct process *p = t->proc;
	struct k_sigaction *ka, act;
	struct sig_sender from;
	u64 old;
	int sig;

	for (;;) {
		if (thread_must_exit(t))
			thread_exit(0);
		sig = signal_dequeue(t, &from);
		if (!sig)
			break;
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
		old = t->sig_blocked;
		if (arch_setup_rt_frame(sig, &act, old, regs, from.code,
					from.pid))
			signal_force_segv();
		t->sig_blocked |= act.mask;
		if (!(act.flags & SA_NODEFER))
			t->sig_blocked |= SIG_BIT(sig);
		t->sig_blocked &= ~SIG_UNBLOCKABLE;
		return;
	}
	syscall_restart(regs, NULL);
}

/* wait4's status encoding: code << 8 for an exit, the signal for a kill. */
long sys_exit_group(unsigned long code)
{
	process_exit((code & 0xff) << 8);
}

long sys_exit(unsigned long code)
{
	thread_exit((code & 0xff) << 8);
}

/* Linux's: WNOHANG acts; WUNTRACED, WCONTINUED, __WALL... are accepted. */
#define WNOHANG 0x00000001
#define WAIT_OPTIONS 0xe000000bUL

struct timeval64 {
	s64 sec, usec;
};

/* Linux's struct rusage: 144 bytes, what is not counted is 0. */
struct rusage64 {
	struct timeval64 utime, stime;
	long maxrss, ixrss, idrss, isrss, minflt, majflt, nswap, inblock;
	long oublock, msgsnd, msgrcv, nsignals, nvcsw, nivcsw;
};

_Static_assert(sizeof(struct rusage64) == 144, "Linux's struct rusage");

static struct timeval64 ns_to_timeval(u64 ns)
{
	return (struct timeval64){ ns / 1000000000ULL,
				   ns % 1000000000ULL / 1000 };
}

static int put_rusage(unsigned long uaddr, const struct task_usage *u)
{
	struct rusage64 r = {
		.utime = ns_to_timeval(u->utime_ns),
		.stime = ns_to_timeval(u->stime_ns),
		.maxrss = u->maxrss_kb,
		.nvcsw = u->nvcsw,
		.nivcsw = u->nivcsw,
	};

	return copy_to_user((void __user *)uaddr, &r, sizeof(r)) ? -EFAULT : 0;
}

#define RUSAGE_SELF 0
#define RUSAGE_CHILDREN (-1)
#define RUSAGE_THREAD 1

long sys_getrusage(unsigned long uwho, unsigned long uaddr)
{
	struct process *p = current_process();
	struct task_usage u;
	int who = (int)uwho;

	if (who == RUSAGE_SELF) {
		process_usage(p, &u);
	} else if (who == RUSAGE_THREAD) {
		thread_usage(current_thread(), &u);
	} else if (who == RUSAGE_CHILDREN) {
		spin_lock_irq(&process_lock);
		u = p->usage_children;
		spin_unlock_irq(&process_lock);
	} else {
		return -EINVAL;
	}
	return put_rusage(uaddr, &u);
}

long sys_wait4(unsigned long upid, unsigned long ustatus, unsigned long options,
	       unsigned long rusage)
{
	struct process *p = current_process(), *c, *found;
	int pid = (int)upid, status;
	struct wait_queue_entry w = { .task = NULL };
	struct task_usage u = {};
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
				/* What the child used and what it reaped. */
				u = c->usage_dead;
				usage_add(&u, &c->usage_children);
				usage_add(&p->usage_children, &u);
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
	process_free(found);
	if (ustatus &&
	    copy_to_user((int __user *)ustatus, &status, sizeof(status)))
		return -EFAULT;
	if (rusage && put_rusage(rusage, &u))
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
	ret = !p  ? -ESRCH :
	      sig ? __process_kill(p, sig, SI_USER, current_process()->pid) :
		    0;
	spin_unlock_irq(&process_lock);
	return ret;
}

/* tgkill(tgid, tid, sig), tkill(tid, sig) (tgid 0): sig to that thread. */
static long thread_kill_call(int tgid, int tid, unsigned long sig)
{
	struct process *p;
	struct uthread *t;
	long ret = -ESRCH;

	spin_lock_irq(&process_lock);
	p = tgid ? process_find(tgid) : NULL;
	t = tgid && !p ? NULL : thread_find(p, tid);
	if (t) {
		ret = sig > NSIG ? -EINVAL : 0;
		if (sig && sig <= NSIG)
			__thread_kill(t, sig, SI_TKILL, current_process()->pid);
	}
	spin_unlock_irq(&process_lock);
	return ret;
}

long sys_tgkill(unsigned long tgid, unsigned long tid, unsigned long sig)
{
	if ((int)tgid <= 0 || (int)tid <= 0)
		return -EINVAL;
	return thread_kill_call(tgid, tid, sig);
}

long sys_tkill(unsigned long tid, unsigned long sig)
{
	if ((int)tid <= 0)
		return -EINVAL;
	return thread_kill_call(0, tid, sig);
}

#define CSIGNAL 0x000000ff
#define CLONE_VM 0x00000100
#define CLONE_FS 0x00000200
#define CLONE_FILES 0x00000400
#define CLONE_SIGHAND 0x00000800
#define CLONE_PIDFD 0x00001000
#define CLONE_PTRACE 0x00002000
#define CLONE_VFORK 0x00004000
#define CLONE_PARENT 0x00008000
#define CLONE_THREAD 0x00010000
#define CLONE_NEWNS 0x00020000
#define CLONE_SYSVSEM 0x00040000
#define CLONE_SETTLS 0x00080000
#define CLONE_PARENT_SETTID 0x00100000
#define CLONE_CHILD_CLEARTID 0x00200000
#define CLONE_DETACHED 0x00400000
#define CLONE_UNTRACED 0x00800000
#define CLONE_CHILD_SETTID 0x01000000
#define CLONE_NEWCGROUP 0x02000000
#define CLONE_NEWUSER 0x10000000
#define CLONE_NEWPID 0x20000000
#define CLONE_IO 0x80000000UL
#define CLONE_CLEAR_SIGHAND 0x100000000ULL
#define CLONE_INTO_CGROUP 0x200000000ULL

/* What clone() and clone3() ask for, clone3's struct clone_args decoded. */
struct clone_req {
	u64 flags;
	unsigned long sp, parent_tid, child_tid, tls;
};

/*
 * The flag combinations Linux refuses, as copy_process() refuses them,
 * then a TLS that is not a user address (-EPERM, as ARCH_SET_FS), then
 * what this kernel does not do (-EINVAL): memory shared without a thread
 * group, a thread with its own fd table or fs, shared fds without one.
 */
static long clone_check(const struct clone_req *r)
{
	u64 f = r->flags;

	if ((f & (CLONE_NEWNS | CLONE_FS)) == (CLONE_NEWNS | CLONE_FS) ||
	    (f & (CLONE_NEWUSER | CLONE_FS)) == (CLONE_NEWUSER | CLONE_FS))
		return -EINVAL;
	if ((f & CLONE_THREAD) && !(f & CLONE_SIGHAND))
		return -EINVAL;
	if ((f & CLONE_SIGHAND) && !(f & CLONE_VM))
		return -EINVAL;
	if ((f & CLONE_SETTLS) && r->tls >= USER_ADDR_END)
		return -EPERM;
	if ((f & CLONE_VM) && !(f & CLONE_THREAD))
		return -EINVAL;
	if ((f & CLONE_THREAD) &&
	    (f & (CLONE_FS | CLONE_FILES)) != (CLONE_FS | CLONE_FILES))
		return -EINVAL;
	if (!(f & CLONE_THREAD) && (f & (CLONE_FS | CLONE_FILES)))
		return -EINVAL;
	return 0;
}

/* The new thread's user state: the caller's, as the flags change it. */
static void thread_init_from(struct uthread *t, const struct clone_req *r)
{
	struct uthread *cur = current_thread();
	struct pt_regs *regs = task_pt_regs(t->task);

	*regs = *current_user_regs();
	regs->rax = 0;
	if (r->sp)
		regs->sp = r->sp;
	t->sig_blocked = cur->sig_blocked;
	t->fsbase = r->flags & CLONE_SETTLS ? r->tls : cur->fsbase;
	if (r->flags & CLONE_CHILD_CLEARTID)
		t->clear_child_tid = r->child_tid;
	if (r->flags & CLONE_CHILD_SETTID)
		t->set_child_tid = r->child_tid;
	t->task->cpus_allowed = current->cpus_allowed;
	asm volatile("fxsaveq %0" : "=m"(t->fpu));
}

/* CLONE_PARENT_SETTID: a store whose fault Linux ignores, as here. */
static void clone_parent_settid(const struct clone_req *r, int tid)
{
	if (r->flags & CLONE_PARENT_SETTID)
		(void)copy_to_user((int __user *)r->parent_tid, &tid,
				   sizeof(tid));
}

/* CLONE_THREAD: a new thread of the caller's process. */
static long clone_thread(const struct clone_req *r)
{
	struct process *p = current_process();
	struct uthread *t;
	long ret;

	t = thread_create(p, current->cpu);
	if (!t)
		return -ENOMEM;
	thread_init_from(t, r);
	ret = thread_attach(p, t);
	if (ret) {
		thread_discard(t);
		return ret;
	}
	ret = t->tid;
	clone_parent_settid(r, ret);
	wake_up_process(t->task);
	return ret;
}

/* fork, vfork and clone without CLONE_VM: a copy of the calling thread. */
static long clone_process(const struct clone_req *r)
{
	struct process *parent = current_process(), *p;
	struct uthread *t;
	unsigned int fd;
	long ret;

	process_reap_orphans();
	p = process_alloc(parent);
	if (!p)
		return -EAGAIN;
	memcpy(p->comm, parent->comm, sizeof(p->comm));
	ret = -ENOMEM;
	mutex_lock(&parent->mm->lock);
	p->mm = mm_copy(parent->mm);
	mutex_unlock(&parent->mm->lock);
	if (!p->mm)
		goto out_free;
	t = thread_create(p, current->cpu);
	if (!t)
		goto out_free;
	thread_init_from(t, r);
	ret = thread_attach(p, t);
	if (ret) {
		thread_discard(t);
		goto out_free;
	}
	spin_lock_irq(&process_lock);
	for (fd = 0; fd < NR_OPEN; fd++) {
		p->files[fd] = parent->files[fd];
		if (p->files[fd])
			p->files[fd]->refs++;
	}
	memcpy(p->sigaction, parent->sigaction, sizeof(p->sigaction));
	spin_unlock_irq(&process_lock);
	p->fds_cloexec = parent->fds_cloexec;
	clone_parent_settid(r, p->pid);
	wake_up_process(t->task);
	return p->pid;

out_free:
	process_abort(p);
	return ret;
}

static long do_clone(const struct clone_req *r)
{
	long ret = clone_check(r);

	if (ret)
		return ret;
	return r->flags & CLONE_THREAD ? clone_thread(r) : clone_process(r);
}

long sys_fork(void)
{
	struct clone_req r = { .flags = SIGCHLD };

	return do_clone(&r);
}

/* vfork does not share memory here: a fork (the parent does not wait). */
long sys_clone(unsigned long flags, unsigned long newsp, unsigned long ptid,
	       unsigned long ctid, unsigned long tls)
{
	struct clone_req r = {
		.flags = (u32)flags & ~(CSIGNAL | CLONE_VFORK | CLONE_DETACHED),
		.sp = newsp,
		.parent_tid = ptid,
		.child_tid = ctid,
		.tls = tls,
	};

	return do_clone(&r);
}

/* Linux's struct clone_args; 64 bytes is its first version. */
struct clone_args {
	u64 flags, pidfd, child_tid, parent_tid, exit_signal, stack;
	u64 stack_size, tls, set_tid, set_tid_size, cgroup;
};

#define CLONE_ARGS_SIZE_VER0 64
#define CLONE_NEWTIME 0x00000080
#define CLONE3_FLAGS (0xffffffffULL | CLONE_CLEAR_SIGHAND | CLONE_INTO_CGROUP)

/*
 * clone3: Linux's checks of the struct (its size, bytes past the struct
 * this kernel knows must be 0, the flags, the exit signal, the stack),
 * then clone's. set_tid, pidfds and cgroups are not supported (-EINVAL).
 */
long sys_clone3(unsigned long uargs, unsigned long size)
{
	struct clone_args a = {};
	struct clone_req r;
	u8 extra;
	unsigned long i;

	if (size > PAGE_SIZE)
		return -E2BIG;
	if (size < CLONE_ARGS_SIZE_VER0)
		return -EINVAL;
	if (copy_from_user(&a, (const void __user *)uargs,
			   min(size, sizeof(a))))
		return -EFAULT;
	for (i = sizeof(a); i < size; i++) {
		if (copy_from_user(&extra, (const u8 __user *)uargs + i, 1))
			return -EFAULT;
		if (extra)
			return -E2BIG;
	}
	if ((a.flags & ~CLONE3_FLAGS) ||
	    (a.flags & (CLONE_DETACHED | (CSIGNAL & ~CLONE_NEWTIME))) ||
	    (a.exit_signal & ~(u64)CSIGNAL) || a.exit_signal > NSIG ||
	    ((a.flags & (CLONE_THREAD | CLONE_PARENT)) && a.exit_signal))
		return -EINVAL;
	if ((a.stack && !a.stack_size) || (!a.stack && a.stack_size))
		return -EINVAL;
	if (a.set_tid || a.set_tid_size || (a.flags & CLONE_PIDFD) ||
	    (a.flags & (CLONE_INTO_CGROUP | CLONE_CLEAR_SIGHAND)))
		return -EINVAL;
	r = (struct clone_req){
		.flags = a.flags & ~(CLONE_VFORK | CLONE_NEWTIME),
		.sp = a.stack ? a.stack + a.stack_size : 0,
		.parent_tid = a.parent_tid,
		.child_tid = a.child_tid,
		.tls = a.tls,
	};
	return do_clone(&r);
}

/*
 * execve's end of the other threads (Linux's de_thread()): they leave as
 * for exit_group, the caller waits until it is the only one and takes
 * the pid as its tid. -EINTR: the process is ending (the caller leaves
 * on its way out).
 */
static int exec_end_other_threads(struct uthread *me)
{
	struct process *p = me->proc;
	int ret = 0;

	spin_lock_irq(&process_lock);
	if (p->group_exit) {
		spin_unlock_irq(&process_lock);
		return -EINTR;
	}
	if (p->nr_threads > 1) {
		p->group_exit = true;
		p->exec_thread = me;
		group_kick_others(p);
	}
	spin_unlock_irq(&process_lock);
	wait_event(p->thread_gone, READ_ONCE(p->nr_threads) == 1 ||
					   READ_ONCE(p->exec_thread) != me);
	spin_lock_irq(&process_lock);
	if (p->group_exit && p->exec_thread != me) {
		ret = -EINTR;
	} else {
		p->group_exit = false;
		p->exec_thread = NULL;
		me->tid = p->pid;
	}
	spin_unlock_irq(&process_lock);
	return ret;
}

#define PATH_MAX 4096

long sys_execve(unsigned long upath, unsigned long uargv, unsigned long uenvp)
{
	struct uthread *t = current_thread();
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
	if (!ret)
		ret = exec_end_other_threads(t);
	if (ret) {
		mm_free(mm);
		return ret;
	}
	/* The point of no return: the old image goes, no CPU has it loaded. */
	old = p->mm;
	preempt_disable();
	p->mm = mm;
	switch_to_user_mm(mm);
	preempt_enable();
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
	t->clear_child_tid = 0;
	t->robust_list = 0;
	arch_set_fsbase(0);
	fpu_init_state(t->fpu);
	asm volatile("fxrstorq %0" : : "m"(t->fpu));
	start_thread(current_user_regs(), ip, sp);
	t->regs_rewritten = true;
	WRITE_ONCE(t->exit_work, 1);
	return 0;
}

static DEFINE_PER_CPU(u64, tick_last_ns);

/*
 * The tick's sample: the time since this CPU's last tick goes to the
 * current thread, as user or kernel time. The time, not TICK_NSEC: a
 * tick that came late (a virtual CPU the host did not run) still counts
 * what passed.
 */
void account_user_tick(bool user, u64 now)
{
	struct uthread *t = current_thread();
	u64 last = this_cpu_read(tick_last_ns);

	this_cpu_write(tick_last_ns, now);
	if (!t || !last || now < last)
		return;
	if (user)
		t->utime_ns += now - last;
	else
		t->stime_ns += now - last;
}

/* ITIMER_REAL ran out: SIGALRM, and the next period if it has one. */
static void it_real_fire(struct timer_list *timer)
{
	struct process *p = from_timer(p, timer, real_timer);
	unsigned long flags;

	spin_lock_irqsave(&process_lock, flags);
	if (!p->zombie && p->nr_threads) {
		__process_kill(p, SIGALRM, SI_KERNEL, 0);
		if (p->it_real_interval)
			mod_timer(&p->real_timer,
				  jiffies + p->it_real_interval);
	}
	spin_unlock_irqrestore(&process_lock, flags);
}

struct itimerval64 {
	struct timeval64 interval, value;
};

#define ITIMER_REAL 0

/* Rounded up to the next jiffy; 0 stays 0. */
static unsigned long timeval_to_jiffies(const struct timeval64 *tv)
{
	u64 us = (u64)tv->sec * 1000000ULL + tv->usec;

	return DIV_ROUND_UP(us, 1000000ULL / HZ);
}

static struct timeval64 jiffies_to_timeval(unsigned long j)
{
	return ns_to_timeval((u64)j * TICK_NSEC);
}

/* ITIMER_REAL now, process_lock held. */
static struct itimerval64 it_real_get(struct process *p)
{
	struct itimerval64 v = {};
	long left;

	if (timer_pending(&p->real_timer)) {
		left = (long)(p->real_timer.expires - jiffies);
		v.value = jiffies_to_timeval(left > 0 ? left : 1);
	}
	v.interval = jiffies_to_timeval(p->it_real_interval);
	return v;
}

static bool timeval_ok(const struct timeval64 *tv)
{
	return tv->sec >= 0 && tv->usec >= 0 && tv->usec < 1000000;
}

/*
 * ITIMER_REAL only (ITIMER_VIRTUAL and ITIMER_PROF: -EINVAL), in jiffies:
 * a value is rounded up to the next one. *old gets what was set.
 */
static long it_real_set(const struct itimerval64 *nv, struct itimerval64 *old)
{
	struct process *p = current_process();
	unsigned long value = timeval_to_jiffies(&nv->value);

	if (!timeval_ok(&nv->value) || !timeval_ok(&nv->interval))
		return -EINVAL;
	spin_lock_irq(&process_lock);
	*old = it_real_get(p);
	p->it_real_interval = value ? timeval_to_jiffies(&nv->interval) : 0;
	spin_unlock_irq(&process_lock);
	if (value)
		mod_timer(&p->real_timer, jiffies + value);
	else
		del_timer_sync(&p->real_timer);
	return 0;
}

long sys_getitimer(unsigned long which, unsigned long uval)
{
	struct itimerval64 v;

	if (which != ITIMER_REAL)
		return -EINVAL;
	spin_lock_irq(&process_lock);
	v = it_real_get(current_process());
	spin_unlock_irq(&process_lock);
	return copy_to_user((void __user *)uval, &v, sizeof(v)) ? -EFAULT : 0;
}

long sys_setitimer(unsigned long which, unsigned long unew, unsigned long uold)
{
	struct itimerval64 nv = {}, old;
	long ret;

	if (which != ITIMER_REAL)
		return -EINVAL;
	if (unew && copy_from_user(&nv, (const void __user *)unew, sizeof(nv)))
		return -EFAULT;
	ret = it_real_set(&nv, &old);
	if (!ret && uold &&
	    copy_to_user((void __user *)uold, &old, sizeof(old)))
		return -EFAULT;
	return ret;
}

/* The seconds that were left, rounded as Linux rounds them. */
long sys_alarm(unsigned long seconds)
{
	struct itimerval64 nv = { .value = { (u32)seconds, 0 } }, old;
	long left;

	it_real_set(&nv, &old);
	left = old.value.sec;
	if ((!left && old.value.usec) || old.value.usec >= 500000)
		left++;
	return left;
}
