// SPDX-License-Identifier: GPL-2.0
/*
 * The arch side of user mode: see <asm/user.h> and entry_syscall_64.S.
 */
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/process.h>
#include <linux/sched.h>
#include <linux/signal.h>
#include <linux/string.h>
#include <linux/syscalls.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <asm/pgtable.h>
#include <asm/processor.h>
#include <asm/traps.h>
#include <asm/user.h>
#include <asm/user_pgtable.h>
#include <trace/events/syscalls.h>

#define MSR_IA32_SYSENTER_CS 0x174
#define MSR_IA32_SYSENTER_ESP 0x175
#define MSR_IA32_SYSENTER_EIP 0x176
#define MSR_STAR 0xc0000081
#define MSR_LSTAR 0xc0000082
#define MSR_CSTAR 0xc0000083
#define MSR_SYSCALL_MASK 0xc0000084
#define MSR_FS_BASE 0xc0000100
#define EFER_SCE (1UL << 0)
#define X86_CR0_MP (1UL << 1)
#define X86_CR0_EM (1UL << 2)
#define X86_CR0_TS (1UL << 3)
#define X86_CR0_NE (1UL << 5)
#define X86_CR4_OSFXSR (1UL << 9)
#define X86_CR4_OSXMMEXCPT (1UL << 10)
#define X86_CR4_SMEP (1UL << 20)
#define X86_EFLAGS_DF (1UL << 10)
#define X86_EFLAGS_AC (1UL << 18)
#define X86_EFLAGS_NT (1UL << 14)

/*
 * The entry's scratch, the stack it switches to and the exit_work of the
 * process running here (entry_syscall_64.S), set at every switch.
 */
DEFINE_PER_CPU(unsigned long, cpu_user_sp);
DEFINE_PER_CPU(unsigned long, cpu_kernel_sp);
DEFINE_PER_CPU(int *, cpu_exit_work);
/*
 * The address space whose page tables this CPU has loaded (NULL: the
 * kernel's), written before CR3 is, and written whenever CR3 is after
 * boot: the switch compares it instead of reading CR3, mm_flush_tlb()
 * reads it to find the CPUs to flush.
 */
DEFINE_PER_CPU(struct mm_struct *, cpu_user_mm);
/* Where cpu_exit_work points once the thread it pointed into is gone. */
static int no_exit_work;

/* The constants entry_syscall_64.S uses. */
_Static_assert(NR_syscalls == 436, "entry_syscall_64.S: NR_syscalls");
_Static_assert(offsetof(struct pt_regs, rax) == 10 * 8,
	       "entry_syscall_64.S: PT_RAX");
_Static_assert(offsetof(struct tracepoint, key) == 8 &&
		       offsetof(struct static_key, enabled) == 0,
	       "entry_syscall_64.S: TP_KEY");

extern const char entry_SYSCALL_64[], entry_SYSCALL_compat[];
extern const char bad_iret_landing[], user_iretq[];
static bool have_smep;

void syscall_cpu_init(void)
{
	u32 a, b, c, d;

	/* SYSCALL: cs 0x08, ss 0x10; SYSRET: cs 0x28+16|3, ss 0x28+8|3. */
	wrmsr(MSR_STAR, (0x28ULL << 48) | (0x08ULL << 32));
	wrmsr(MSR_LSTAR, (u64)entry_SYSCALL_64);
	/*
	 * Every way into ring 0 goes somewhere: SYSCALL from 32-bit code
	 * (GDT entry 5, which SYSRET's layout needs, is DPL 3) gets -ENOSYS
	 * back; SYSENTER faults (#GP with a null SYSENTER_CS; #UD in long
	 * mode on AMD).
	 */
	wrmsr(MSR_CSTAR, (u64)entry_SYSCALL_compat);
	wrmsr(MSR_IA32_SYSENTER_CS, 0);
	wrmsr(MSR_IA32_SYSENTER_ESP, 0);
	wrmsr(MSR_IA32_SYSENTER_EIP, 0);
	wrmsr(MSR_SYSCALL_MASK, X86_EFLAGS_IF | X86_EFLAGS_TF | X86_EFLAGS_DF |
					X86_EFLAGS_AC | X86_EFLAGS_NT);
	wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_SCE);
	/* SSE for user programs: the kernel itself never touches it. */
	write_cr0((read_cr0() & ~(X86_CR0_EM | X86_CR0_TS)) | X86_CR0_MP |
		  X86_CR0_NE);
	write_cr4(read_cr4() | X86_CR4_OSFXSR | X86_CR4_OSXMMEXCPT);
	cpuid(0, &a, &b, &c, &d);
	if (a >= 7) {
		cpuid(7, &a, &b, &c, &d);
		have_smep = b & (1U << 7);
	}
	if (have_smep)
		write_cr4(read_cr4() | X86_CR4_SMEP);
}

struct pt_regs *task_pt_regs(struct task_struct *t)
{
	return (struct pt_regs *)(t->stack + THREAD_SIZE) - 1;
}

void start_thread(struct pt_regs *regs, unsigned long ip, unsigned long sp)
{
	memset(regs, 0, sizeof(*regs));
	regs->ip = ip;
	regs->sp = sp;
	regs->cs = USER_CS;
	regs->ss = USER_DS;
	regs->flags = X86_EFLAGS_IF | 0x2;
	regs->vector = SYSCALL_VECTOR;
}

void fpu_init_state(void *buf)
{
	u8 *b = buf;

	memset(buf, 0, 512);
	b[0] = 0x7f; /* FCW 0x037f: every x87 exception masked */
	b[1] = 0x03;
	*(u32 *)(b + 24) = 0x1f80; /* MXCSR: every SSE exception masked */
}

void switch_to_kernel_mm(void)
{
	if (this_cpu_read(cpu_user_mm)) {
		this_cpu_write(cpu_user_mm, NULL);
		write_cr3(__pa(kernel_pgd_table()));
	}
}

void switch_to_user_mm(struct mm_struct *mm)
{
	this_cpu_write(cpu_user_mm, mm);
	write_cr3(mm->pgd);
}

void arch_user_detach(void)
{
	switch_to_kernel_mm();
	this_cpu_write(cpu_exit_work, &no_exit_work);
}

/*
 * Interrupts off, on prev's stack: prev's FPU state is saved, next's
 * loaded with its page table (unless it is prev's: a thread of the same
 * process) and FS base; the kernel stack the CPU enters on from user mode
 * becomes next's.
 */
void arch_switch_user(struct task_struct *prev, struct task_struct *next)
{
	struct uthread *nt = next->uthread;
	struct mm_struct *mm;

	if (prev->uthread)
		asm volatile("fxsaveq %0" : "=m"(prev->uthread->fpu));
	if (!nt) {
		switch_to_kernel_mm();
		return;
	}
	this_cpu_write(cpu_kernel_sp, next->stack + THREAD_SIZE);
	this_cpu_write(cpu_exit_work, &nt->exit_work);
	cpu_set_rsp0(next->stack + THREAD_SIZE);
	mm = next->proc->mm;
	if (this_cpu_read(cpu_user_mm) != mm)
		switch_to_user_mm(mm);
	asm volatile("fxrstorq %0" : : "m"(nt->fpu));
	wrmsr(MSR_FS_BASE, nt->fsbase);
}

void arch_set_fsbase(unsigned long base)
{
	current_thread()->fsbase = base;
	wrmsr(MSR_FS_BASE, base);
}

/*
 * Linux's printk_ratelimit() for the lines of user faults: 10 in any 5 s,
 * then none until those 5 s are over.
 */
static bool user_fault_ratelimit(void)
{
	static DEFINE_SPINLOCK(lock);
	static u64 begin;
	static unsigned int printed;
	unsigned long flags;
	u64 now = ktime_get_ns();
	bool ok;

	spin_lock_irqsave(&lock, flags);
	if (!begin || now - begin >= 5000000000ULL) {
		begin = now;
		printed = 0;
	}
	ok = printed < 10;
	if (ok)
		printed++;
	spin_unlock_irqrestore(&lock, flags);
	return ok;
}

/* Whether sig will kill p rather than run a handler (Linux's test). */
static bool unhandled_signal(const struct process *p, int sig)
{
	unsigned long h = p->sigaction[sig - 1].handler;

	return p->pid == 1 || h == SIG_DFL || h == SIG_IGN;
}

/*
 * As Linux's force_sig(): a fault's signal that is blocked or ignored
 * takes its default action; with a handler, the handler runs.
 */
void force_sig_fault(int sig)
{
	thread_kill_forced(sig);
}

/* Linux's signal for each exception a user program can raise. */
static int user_exception_signal(unsigned long vector)
{
	switch (vector) {
	case X86_TRAP_DE:
	case X86_TRAP_MF:
	case X86_TRAP_XF:
		return SIGFPE;
	case X86_TRAP_DB:
	case X86_TRAP_BP:
		return SIGTRAP;
	case X86_TRAP_UD:
		return SIGILL;
	case X86_TRAP_NP:
	case X86_TRAP_SS:
	case X86_TRAP_AC:
		return SIGBUS;
	}
	return SIGSEGV;
}

/*
 * A fault in user mode: Linux's line, if the signal will kill (a handled
 * fault is the program's business: no line) and not too many came
 * lately, then the signal.
 */
static void user_fault(struct pt_regs *regs, unsigned long vector,
		       const char *name)
{
	struct process *p = current_process();
	int sig = user_exception_signal(vector);
	bool quiet = vector == X86_TRAP_BP || vector == X86_TRAP_DB ||
		     vector == X86_TRAP_MF || vector == X86_TRAP_XF;

	if (!quiet && unhandled_signal(p, sig) && user_fault_ratelimit()) {
		if (vector == X86_TRAP_PF)
			pr_info("%s[%d]: segfault at %lx ip %016lx sp %016lx error %lx\n",
				p->comm, p->pid, read_cr2(), regs->ip, regs->sp,
				regs->error_code);
		else if (vector == X86_TRAP_GP)
			pr_info("traps: %s[%d] general protection fault ip:%lx sp:%lx error:%lx\n",
				p->comm, p->pid, regs->ip, regs->sp,
				regs->error_code);
		else
			pr_info("traps: %s[%d] trap %s ip:%lx sp:%lx error:%lx\n",
				p->comm, p->pid, name ? name : "exception",
				regs->ip, regs->sp, regs->error_code);
	}
	force_sig_fault(sig);
}

/* An exception in user mode: the signal, then the way back. */
void user_exception(struct pt_regs *regs, unsigned long vector,
		    const char *name)
{
	if (WARN_ON_ONCE(!current_process()))
		return;
	user_fault(regs, vector, name);
	exit_to_user_mode(regs);
}

/*
 * Whether IRET can take regs back to user mode as the CPU would run
 * them: QEMU's TCG returns to a non-canonical ip (and a 32-bit ip past
 * 4 GiB) where a real CPU raises #GP in ring 0. Bad selectors are left
 * to the CPU: its fault at user_iretq is fixed up (bad_iret()).
 */
static bool user_ip_ok(const struct pt_regs *regs)
{
	if ((regs->cs | 3) == USER32_CS)
		return regs->ip <= 0xffffffffUL;
	return regs->ip < 0x0000800000000000UL;
}

/*
 * The frame regs would return to cannot be returned to: the program gets
 * the #GP a real CPU gives it (Linux's fixup_bad_iret()). A SIGSEGV
 * handler that is itself the bad ip takes the default action instead
 * of looping (as Linux's force_sigsegv()).
 */
static void user_bad_return(struct pt_regs *regs)
{
	struct process *p = current_process();

	if (p->sigaction[SIGSEGV - 1].handler == regs->ip)
		p->sigaction[SIGSEGV - 1].handler = SIG_DFL;
	regs->vector = X86_TRAP_GP;
	regs->error_code = 0;
	user_fault(regs, X86_TRAP_GP, NULL);
}

/*
 * From traps.c: the IRET at user_iretq faulted (#GP, #NP, #SS) on the
 * frame at regs->sp, the task's user pt_regs: the frame's selectors are
 * not the CPU's to take. regs is the fault's (ring 0, on the user's GS
 * until the entry swapped it); the user's registers are its general
 * registers, which the exit path had just loaded. They and the frame go
 * to this CPU's bad_iret_regs, and the fault returns to
 * bad_iret_landing, at the top of the stack, which hands them to
 * bad_iret_fault() as a fault of user mode.
 */
static DEFINE_PER_CPU(struct pt_regs, bad_iret_regs);

bool bad_iret(struct pt_regs *regs)
{
	struct pt_regs *u = task_pt_regs(current), r = *regs;
	const unsigned long *frame = (const unsigned long *)regs->sp;

	if (regs->ip != (unsigned long)user_iretq || !current_process() ||
	    regs->sp != (unsigned long)&u->ip)
		return false;
	r.ip = frame[0];
	r.cs = frame[1];
	r.flags = frame[2];
	r.sp = frame[3];
	r.ss = frame[4];
	*this_cpu_ptr(&bad_iret_regs) = r;
	regs->ip = (unsigned long)bad_iret_landing;
	regs->sp = (unsigned long)u;
	return true;
}

__visible void bad_iret_fault(struct pt_regs *regs);
__visible void bad_iret_fault(struct pt_regs *regs)
{
	*regs = *this_cpu_ptr(&bad_iret_regs);
	user_exception(regs, regs->vector, NULL);
}

/*
 * Pending signals act (all with their default action), then reschedule;
 * a frame IRET cannot return to faults as it would on a CPU.
 */
void exit_to_user_mode(struct pt_regs *regs)
{
	for (;;) {
		local_irq_enable();
		signal_deliver(regs);
		if (unlikely(!user_ip_ok(regs))) {
			user_bad_return(regs);
			continue;
		}
		if (!need_resched())
			break;
		schedule();
	}
	local_irq_disable();
}

/*
 * The slow way out of a system call: signals, a reschedule, or registers
 * execve() rewrote, which IRET restores in full (false: no SYSRET). From
 * entry_syscall_64.S and the C below, interrupts off.
 */
__visible bool syscall_exit_work(struct pt_regs *regs);
__visible noinline bool syscall_exit_work(struct pt_regs *regs)
{
	struct uthread *t = current_thread();
	bool full;

	WRITE_ONCE(t->exit_work, 0);
	exit_to_user_mode(regs);
	full = t->regs_rewritten; /* execve, rt_sigreturn */
	t->regs_rewritten = false;
	return !full && regs->ip < USER_ADDR_END;
}

static __always_inline bool syscall_exit_check(struct pt_regs *regs)
{
	local_irq_disable();
	if (unlikely(READ_ONCE(current_thread()->exit_work) |
		     this_cpu_read(sched_need_resched)))
		return syscall_exit_work(regs);
	return true;
}

/*
 * The slow entry: raw_syscalls:sys_enter is on, or the number is past
 * the table. raw_syscalls:sys_enter, the call regs asks for (its number
 * in error_code, Linux's orig_ax), raw_syscalls:sys_exit. From
 * entry_SYSCALL_64 with interrupts off: true if SYSRET may return
 * (regs->ip is then the address after the SYSCALL instruction, a
 * canonical user address; callee-saved registers were kept by C).
 */
__visible bool do_syscall_64(struct pt_regs *regs);
__visible bool do_syscall_64(struct pt_regs *regs)
{
	unsigned int nr = regs->error_code; /* an int, as Linux's */
	syscall_fn_t fn;
	long ret;

	local_irq_enable();
	trace_sys_enter(regs, nr);
	fn = likely(nr < NR_syscalls) ? sys_call_table[nr] : NULL;
	if (likely(fn))
		ret = fn(regs->rdi, regs->rsi, regs->rdx, regs->r10, regs->r8,
			 regs->r9);
	else
		ret = syscall_enosys(nr);
	trace_sys_exit(regs, ret);
	regs->rax = ret;
	return syscall_exit_check(regs);
}

/*
 * The fast path's call returned (its value in regs->rax) and
 * raw_syscalls:sys_exit is on: interrupts on.
 */
__visible bool syscall_exit_traced(struct pt_regs *regs);
__visible bool syscall_exit_traced(struct pt_regs *regs)
{
	trace_sys_exit(regs, regs->rax);
	return syscall_exit_check(regs);
}

long __copy_user(void *dst, const void *src, unsigned long n);
long __strncpy_user(char *dst, const char *src, long n);

static bool user_range_ok(const void __user *p, unsigned long n)
{
	unsigned long a = (unsigned long)p;

	return a < USER_ADDR_END && n <= USER_ADDR_END - a;
}

unsigned long copy_from_user(void *to, const void __user *from, unsigned long n)
{
	if (!user_range_ok(from, n)) {
		memset(to, 0, n);
		return n;
	}
	return __copy_user(to, (const void *)from, n);
}

unsigned long copy_to_user(void __user *to, const void *from, unsigned long n)
{
	if (!user_range_ok(to, n))
		return n;
	return __copy_user((void *)to, from, n);
}

/*
 * A string that runs into the end of user space before n bytes without
 * a NUL is -EFAULT (as Linux's): the bytes past the end are not the
 * caller's, whatever the kernel's buffer holds after them.
 */
long strncpy_from_user(char *dst, const char __user *src, long n)
{
	unsigned long a = (unsigned long)src;
	long max = n, ret;

	if (n <= 0)
		return 0;
	if (a >= USER_ADDR_END)
		return -EFAULT;
	if ((unsigned long)n > USER_ADDR_END - a)
		max = USER_ADDR_END - a;
	ret = __strncpy_user(dst, (const char *)src, max);
	if (ret == max && max < n)
		return -EFAULT;
	return ret;
}
