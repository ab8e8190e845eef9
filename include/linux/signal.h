/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_SIGNAL_H
#define _LINUX_SIGNAL_H

/* Linux's x86-64 signal numbers; only default actions and SIG_IGN act. */
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

struct pt_regs;
/* Acts on the current process's pending, unblocked signals. */
void signal_deliver(struct pt_regs *regs);

#endif /* _LINUX_SIGNAL_H */
