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
#include <linux/uaccess.h>
#include <asm/pgtable.h>
#include <asm/processor.h>
#include <asm/traps.h>
#include <asm/user.h>
#include <asm/user_pgtable.h>
#include <trace/events/syscalls.h>

#define MSR_STAR 0xc0000081
#define MSR_LSTAR 0xc0000082
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

/* The constants entry_syscall_64.S uses. */
_Static_assert(NR_syscalls == 335, "entry_syscall_64.S: NR_syscalls");
_Static_assert(offsetof(struct pt_regs, rax) == 10 * 8,
	       "entry_syscall_64.S: PT_RAX");
_Static_assert(offsetof(struct tracepoint, key) == 8 &&
		       offsetof(struct static_key, enabled) == 0,
	       "entry_syscall_64.S: TP_KEY");

extern const char entry_SYSCALL_64[];
static bool have_smep;

void syscall_cpu_init(void)
{
	u32 a, b, c, d;

	/* SYSCALL: cs 0x08, ss 0x10; SYSRET: cs 0x28+16|3, ss 0x28+8|3. */
	wrmsr(MSR_STAR, (0x28ULL << 48) | (0x08ULL << 32));
	wrmsr(MSR_LSTAR, (u64)entry_SYSCALL_64);
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
	phys_addr_t k = __pa(kernel_pgd_table());

	if ((read_cr3() & PTE_PFN_MASK) != k)
		write_cr3(k);
}

/*
 * Interrupts off, on prev's stack: prev's FPU state is saved, next's
 * loaded with its page table and FS base; the kernel stack the CPU enters
 * on from user mode becomes next's.
 */
void arch_switch_user(struct task_struct *prev, struct task_struct *next)
{
	struct process *np = next->proc;

	if (prev->proc)
		asm volatile("fxsaveq %0" : "=m"(prev->proc->fpu));
	if (!np) {
		switch_to_kernel_mm();
		return;
	}
	this_cpu_write(cpu_kernel_sp, next->stack + THREAD_SIZE);
	this_cpu_write(cpu_exit_work, &np->exit_work);
	cpu_set_rsp0(next->stack + THREAD_SIZE);
	if ((read_cr3() & PTE_PFN_MASK) != np->mm->pgd)
		write_cr3(np->mm->pgd);
	asm volatile("fxrstorq %0" : : "m"(np->fpu));
	wrmsr(MSR_FS_BASE, np->fsbase);
}

void arch_set_fsbase(unsigned long base)
{
	current_process()->fsbase = base;
	wrmsr(MSR_FS_BASE, base);
}

/* Linux's messages for a fatal user exception, then the signal. */
void user_exception(struct pt_regs *regs, unsigned long vector,
		    const char *name)
{
	struct process *p = current_process();
	int sig = SIGSEGV;

	if (WARN_ON_ONCE(!p))
		return;
	switch (vector) {
	case X86_TRAP_PF:
		pr_info("%s[%d]: segfault at %lx ip %016lx sp %016lx error %lx\n",
			p->comm, p->pid, read_cr2(), regs->ip, regs->sp,
			regs->error_code);
		break;
	case X86_TRAP_DE:
	case X86_TRAP_UD:
		sig = vector == X86_TRAP_UD ? SIGILL : SIGFPE;
		pr_info("traps: %s[%d] trap %s ip:%lx sp:%lx error:%lx\n",
			p->comm, p->pid, name, regs->ip, regs->sp,
			regs->error_code);
		break;
	case X86_TRAP_BP:
	case X86_TRAP_DB:
		sig = SIGTRAP;
		break;
	default:
		pr_info("traps: %s[%d] %s ip:%lx sp:%lx error:%lx\n", p->comm,
			p->pid, name ? name : "exception", regs->ip, regs->sp,
			regs->error_code);
		break;
	}
	/* As Linux's force_sig(): a blocked or ignored fault still acts. */
	if (p->sigaction[sig - 1].handler == SIG_IGN ||
	    (p->sig_blocked & (1ULL << (sig - 1)))) {
		p->sigaction[sig - 1].handler = SIG_DFL;
		p->sig_blocked &= ~(1ULL << (sig - 1));
	}
	process_kill_forced(p, sig);
	exit_to_user_mode(regs);
}

/* Pending signals act (all with their default action), then reschedule. */
void exit_to_user_mode(struct pt_regs *regs)
{
	for (;;) {
		local_irq_enable();
		signal_deliver(regs);
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
	struct process *p = current_process();
	bool full;

	WRITE_ONCE(p->exit_work, 0);
	exit_to_user_mode(regs);
	full = p->regs_rewritten; /* execve, rt_sigreturn */
	p->regs_rewritten = false;
	return !full && regs->ip < USER_ADDR_END;
}

static __always_inline bool syscall_exit_check(struct pt_regs *regs)
{
	local_irq_disable();
	if (unlikely(READ_ONCE(current_process()->exit_work) |
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
	unsigned long nr = regs->error_code;
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

long strncpy_from_user(char *dst, const char __user *src, long n)
{
	unsigned long a = (unsigned long)src;

	if (n <= 0)
		return 0;
	if (a >= USER_ADDR_END)
		return -EFAULT;
	if ((unsigned long)n > USER_ADDR_END - a)
		n = USER_ADDR_END - a;
	return __strncpy_user(dst, (const char *)src, n);
}

unsigned long clear_user(void __user *to, unsigned long n)
{
	static const u8 zeroes[256];
	unsigned long left = n;

	while (left) {
		unsigned long k = min(left, sizeof(zeroes)), r;

		r = copy_to_user(to, zeroes, k);
		left -= k - r;
		if (r)
			break;
		to = (u8 __user *)to + k;
	}
	return left;
}
