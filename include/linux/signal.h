/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_SIGNAL_H
#define _LINUX_SIGNAL_H

/* Linux's x86-64 signal numbers and sigaction flags. */
#define SIGHUP 1
#define SIGINT 2
#define SIGQUIT 3
#define SIGILL 4
#define SIGTRAP 5
#define SIGABRT 6
#define SIGBUS 7
#define SIGFPE 8
#define SIGKILL 9
#define SIGUSR1 10
#define SIGSEGV 11
#define SIGUSR2 12
#define SIGPIPE 13
#define SIGALRM 14
#define SIGTERM 15
#define SIGCHLD 17
#define SIGCONT 18
#define SIGSTOP 19

#define SIG_DFL 0UL
#define SIG_IGN 1UL

#define SA_SIGINFO 0x00000004UL
#define SA_RESTORER 0x04000000UL
#define SA_ONSTACK 0x08000000UL
#define SA_RESTART 0x10000000UL
#define SA_NODEFER 0x40000000UL
#define SA_RESETHAND 0x80000000UL

/*
 * A sleep a signal ended, in a system call's return value until the way
 * out: the call is made again (no handler ran, or its SA_RESTART) or
 * returns -EINTR. Never seen by user mode, as Linux's.
 */
#define ERESTARTSYS 512

struct pt_regs;
struct k_sigaction;
/*
 * Acts on the current process's pending, unblocked signals: the default
 * action, or a handler's frame built on the user stack (regs then enter
 * the handler).
 */
void signal_deliver(struct pt_regs *regs);
/* A fault's signal that cannot be caught now: SIGSEGV's default action. */
void signal_force_segv(void);
/*
 * <asm>: the handler's frame, its siginfo with si_code code and si_pid
 * pid; -EFAULT if the user stack cannot take it.
 */
int arch_setup_rt_frame(int sig, const struct k_sigaction *ka, u64 oldmask,
			struct pt_regs *regs, int code, int pid);

#endif /* _LINUX_SIGNAL_H */
