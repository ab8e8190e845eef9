// SPDX-License-Identifier: GPL-2.0
/*
 * User signal handlers on x86-64: the frame Linux builds on the user's
 * stack (struct rt_sigframe: the return address, a ucontext, a siginfo,
 * the FPU state) and rt_sigreturn, which takes the registers back from it.
 *
 * The layouts are Linux's, so that glibc's SA_SIGINFO handlers find
 * info and uc where they expect them and glibc's __restore_rt (the
 * SA_RESTORER it installs) returns with rt_sigreturn (15).
 */
#include <linux/kernel.h>
#include <linux/process.h>
#include <linux/signal.h>
#include <linux/string.h>
#include <linux/syscalls.h>
#include <linux/uaccess.h>
#include <asm/processor.h>
#include <asm/ptrace.h>
#include <asm/user.h>
#include <asm/user_pgtable.h>

/* Linux's struct sigcontext (x86-64): 256 bytes. */
struct sigcontext64 {
	u64 r8, r9, r10, r11, r12, r13, r14, r15;
	u64 rdi, rsi, rbp, rbx, rdx, rax, rcx, rsp, rip, eflags;
	u16 cs, gs, fs, ss;
	u64 err, trapno, oldmask, cr2;
	u64 fpstate; /* user address of the fxsave image */
	u64 reserved1[8];
};

struct ustack {
	u64 ss_sp;
	s32 ss_flags;
	u32 pad;
	u64 ss_size;
};

struct ucontext64 {
	u64 uc_flags;
	u64 uc_link;
	struct ustack uc_stack;
	struct sigcontext64 uc_mcontext;
	u64 uc_sigmask;
};

struct siginfo64 {
	s32 si_signo, si_errno, si_code, pad;
	u64 fields[14]; /* 128 bytes in all */
};

struct rt_sigframe {
	u64 pretcode; /* sa_restorer: where the handler returns */
	struct ucontext64 uc;
	struct siginfo64 info;
};

_Static_assert(sizeof(struct sigcontext64) == 256, "Linux's sigcontext");
_Static_assert(sizeof(struct siginfo64) == 128, "Linux's siginfo");
_Static_assert(offsetof(struct ucontext64, uc_mcontext) == 40,
	       "Linux's ucontext");

#define UC_FP_XSTATE 0x1
#define UC_SIGCONTEXT_SS 0x2
#define UC_STRICT_RESTORE_SS 0x4
#define SS_DISABLE 2
#define RED_ZONE 128
#define FXSAVE_SIZE 512
#define MXCSR_OFFSET 24
#define MXCSR_MASK 0xffbfU /* the bits the CPU lets software set */
/* The flags a user may change: CF PF AF ZF SF TF DF OF RF AC, as Linux. */
#define USER_FLAGS_MASK 0x50dd5UL
#ifndef X86_EFLAGS_DF
#define X86_EFLAGS_DF 0x400UL
#endif

static bool canonical(unsigned long a)
{
	return a < 0x0000800000000000UL || a >= 0xffff800000000000UL;
}

int arch_setup_rt_frame(int sig, const struct k_sigaction *ka, u64 oldmask,
			struct pt_regs *regs, int code, int pid)
{
	u8 fx[FXSAVE_SIZE] __aligned(16);
	struct rt_sigframe f;
	unsigned long sp, fxp;

	if (!(ka->flags & SA_RESTORER))
		return -EFAULT; /* as Linux: nowhere to return to */
	sp = regs->sp - RED_ZONE;
	fxp = (sp - FXSAVE_SIZE) & ~63UL;
	sp = ((fxp - sizeof(f)) & ~15UL) - 8; /* as after a call */
	asm volatile("fxsaveq %0" : "=m"(fx));

	memset(&f, 0, sizeof(f));
	f.pretcode = ka->restorer;
	f.uc.uc_flags = UC_SIGCONTEXT_SS | UC_STRICT_RESTORE_SS;
	f.uc.uc_stack.ss_flags = SS_DISABLE;
	f.uc.uc_mcontext = (struct sigcontext64){
		.r8 = regs->r8,
		.r9 = regs->r9,
		.r10 = regs->r10,
		.r11 = regs->r11,
		.r12 = regs->r12,
		.r13 = regs->r13,
		.r14 = regs->r14,
		.r15 = regs->r15,
		.rdi = regs->rdi,
		.rsi = regs->rsi,
		.rbp = regs->rbp,
		.rbx = regs->rbx,
		.rdx = regs->rdx,
		.rax = regs->rax,
		.rcx = regs->rcx,
		.rsp = regs->sp,
		.rip = regs->ip,
		.eflags = regs->flags,
		.cs = regs->cs,
		.ss = regs->ss,
		.oldmask = oldmask,
		.fpstate = fxp,
	};
	if (regs->vector < 32) {
		f.uc.uc_mcontext.trapno = regs->vector;
		f.uc.uc_mcontext.err = regs->error_code;
		if (regs->vector == 14)
			f.uc.uc_mcontext.cr2 = read_cr2();
	}
	f.uc.uc_sigmask = oldmask;
	f.info.si_signo = sig;
	f.info.si_code = code;
	f.info.fields[0] = (u32)pid; /* si_pid; si_uid 0 */
	if (copy_to_user((void __user *)fxp, fx, sizeof(fx)) ||
	    copy_to_user((void __user *)sp, &f, sizeof(f)))
		return -EFAULT;

	/* The handler is 64-bit code, whatever mode the program was in. */
	regs->ip = ka->handler;
	regs->sp = sp;
	regs->cs = USER_CS;
	regs->ss = USER_DS;
	regs->rdi = sig;
	regs->rsi = sp + offsetof(struct rt_sigframe, info);
	regs->rdx = sp + offsetof(struct rt_sigframe, uc);
	regs->rax = 0;
	regs->flags &= ~(X86_EFLAGS_TF | X86_EFLAGS_DF);
	return 0;
}

/*
 * rt_sigreturn: the handler returned to sa_restorer, which made this
 * call with the stack just above the frame's pretcode. The registers,
 * the blocked set and the FPU state come back from the frame, cs and ss
 * too (ring 3 forced, as Linux: a selector the CPU refuses faults in the
 * IRET, see bad_iret()); a frame that cannot be read, or whose ip or sp
 * is not a user address, is refused with SIGSEGV (as Linux's force_sig():
 * a handler of it runs, on the registers of this call). Returns through
 * IRET (every register).
 */
long sys_rt_sigreturn(void)
{
	struct pt_regs *regs = current_user_regs();
	struct uthread *t = current_thread();
	u8 fx[FXSAVE_SIZE] __aligned(16);
	const struct sigcontext64 *sc;
	struct rt_sigframe f;
	u32 mxcsr;

	if (copy_from_user(&f, (const void __user *)(regs->sp - 8), sizeof(f)))
		goto bad;
	sc = &f.uc.uc_mcontext;
	if (sc->rip >= USER_ADDR_END || !canonical(sc->rsp))
		goto bad;
	if (sc->fpstate) {
		if (copy_from_user(fx, (const void __user *)sc->fpstate,
				   sizeof(fx)))
			goto bad;
		memcpy(&mxcsr, fx + MXCSR_OFFSET, sizeof(mxcsr));
		mxcsr &= MXCSR_MASK;
		memcpy(fx + MXCSR_OFFSET, &mxcsr, sizeof(mxcsr));
		asm volatile("fxrstorq %0" : : "m"(fx));
	}
	regs->r8 = sc->r8;
	regs->r9 = sc->r9;
	regs->r10 = sc->r10;
	regs->r11 = sc->r11;
	regs->r12 = sc->r12;
	regs->r13 = sc->r13;
	regs->r14 = sc->r14;
	regs->r15 = sc->r15;
	regs->rdi = sc->rdi;
	regs->rsi = sc->rsi;
	regs->rbp = sc->rbp;
	regs->rbx = sc->rbx;
	regs->rdx = sc->rdx;
	regs->rcx = sc->rcx;
	regs->sp = sc->rsp;
	regs->ip = sc->rip;
	regs->cs = sc->cs | 3;
	regs->ss = sc->ss | 3;
	/* Linux's force_valid_ss(): a frame that did not ask to keep it. */
	if (!(f.uc.uc_flags & UC_STRICT_RESTORE_SS) && regs->cs == USER_CS)
		regs->ss = USER_DS;
	regs->flags = (regs->flags & ~USER_FLAGS_MASK) |
		      (sc->eflags & USER_FLAGS_MASK);
	regs->error_code = -1UL; /* not a system call: no restart */
	t->sig_blocked = f.uc.uc_sigmask &
			 ~((1ULL << (SIGKILL - 1)) | (1ULL << (SIGSTOP - 1)));
	t->regs_rewritten = true;
	WRITE_ONCE(t->exit_work, 1); /* IRET; an unblocked signal acts */
	return sc->rax;
bad:
	force_sig_fault(SIGSEGV);
	return 0;
}
