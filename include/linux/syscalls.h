/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_SYSCALLS_H
#define _LINUX_SYSCALLS_H

/*
 * Linux's x86-64 system calls (kernel/sys.c, kernel/fork.c, kernel/exec.c,
 * fs/): each takes the six argument registers and returns a value or a
 * negative errno, as the user sees it in %rax.
 */
#include <linux/types.h>

struct pt_regs;

typedef long (*syscall_fn_t)(unsigned long a0, unsigned long a1,
			     unsigned long a2, unsigned long a3,
			     unsigned long a4, unsigned long a5);

/* The number of the table's last entry, plus one. */
#define NR_syscalls 436
/* Linux's numbers; NULL: none (kernel/sys.c). */
extern const syscall_fn_t sys_call_table[NR_syscalls];
/* The answer to a number without an entry: -ENOSYS, logged once. */
long syscall_enosys(unsigned long nr);

/* The calls other files implement (kernel/sys.c holds the table). */
long sys_read(unsigned long, unsigned long, unsigned long);
long sys_write(unsigned long, unsigned long, unsigned long);
long sys_writev(unsigned long, unsigned long, unsigned long);
long sys_openat(unsigned long, unsigned long, unsigned long, unsigned long);
long sys_close(unsigned long);
long sys_fstat(unsigned long, unsigned long);
long sys_newfstatat(unsigned long, unsigned long, unsigned long, unsigned long);
long sys_lseek(unsigned long, unsigned long, unsigned long);
long sys_ioctl(unsigned long, unsigned long, unsigned long);
long sys_pipe(unsigned long);
long sys_pipe2(unsigned long, unsigned long);
long sys_dup(unsigned long);
long sys_dup2(unsigned long, unsigned long);
long sys_dup3(unsigned long, unsigned long, unsigned long);
long sys_brk(unsigned long);
long sys_mmap(unsigned long, unsigned long, unsigned long, unsigned long,
	      unsigned long, unsigned long);
long sys_munmap(unsigned long, unsigned long);
long sys_mprotect(unsigned long, unsigned long, unsigned long);
long sys_fork(void);
long sys_clone(unsigned long, unsigned long, unsigned long, unsigned long,
	       unsigned long);
long sys_execve(unsigned long, unsigned long, unsigned long);
long sys_clone3(unsigned long, unsigned long);
long sys_exit(unsigned long);
long sys_exit_group(unsigned long);
long sys_getrusage(unsigned long, unsigned long);
long sys_getitimer(unsigned long, unsigned long);
long sys_setitimer(unsigned long, unsigned long, unsigned long);
long sys_alarm(unsigned long);
long sys_wait4(unsigned long, unsigned long, unsigned long, unsigned long);
long sys_kill(unsigned long, unsigned long);
long sys_rt_sigreturn(void);
long sys_tgkill(unsigned long, unsigned long, unsigned long);
long sys_tkill(unsigned long, unsigned long);
long sys_mkdir(unsigned long, unsigned long);
long sys_mkdirat(unsigned long, unsigned long, unsigned long);
long sys_mount(unsigned long, unsigned long, unsigned long, unsigned long,
	       unsigned long);
long sys_readlink(unsigned long, unsigned long, unsigned long);
long sys_readlinkat(unsigned long, unsigned long, unsigned long, unsigned long);

void arch_set_fsbase(unsigned long base);
/* CLOCK_REALTIME in nanoseconds (kernel/sys.c). */
u64 realtime_ns(void);
/* fork's half in the child: its task returns to user mode with rax 0. */
struct pt_regs *current_user_regs(void);

#endif /* _LINUX_SYSCALLS_H */
