/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every way into ring 0 from user mode, from 64-bit code and from 32-bit
 * (compatibility mode) code, and IRET back with a bad frame: the checks
 * uentry (this kernel's expectations) and uconform (the lines the same on
 * Linux) run. Each check runs in a child; its outcome is one string:
 *
 *   "ret N"                      the code returned N (eax for 32-bit code)
 *   "sig S trap T err E[ cs64]"  a handler of S ran (64-bit mode: cs64),
 *                                the frame's trapno and err
 *   "killed S"                   the child died of signal S
 *
 * 32-bit code runs on a stack in .bss (below 4 GiB: the program is
 * static and not PIE); its selectors are derived from the 64-bit %cs,
 * which SYSRET's layout puts 16 above the 32-bit one on both kernels.
 * Linux-only include (glibc's ucontext register names).
 */
#ifndef UMODE_H
#define UMODE_H

#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

/* run32(code, eax): the 32-bit code (ends with jmp um_back64) in
 * compatibility mode; its eax back. */
long run32(const void *code, unsigned int eax);
extern const char um32_syscall[], um32_int80[], um32_sysenter[], um32_int3[],
	um32_ud2[], um32_hlt[], um32_into[], um32_icebp[], um32_getcs[],
	um32_intn[], um64_intn[];
#define UM_INTN_STRIDE 16

asm(".pushsection .bss\n"
    ".balign 16\n"
    "um_stack: .skip 65536\n"
    "um_stack_top:\n"
    ".popsection\n"
    ".pushsection .data\n"
    ".balign 8\n"
    "um_saved_rsp: .quad 0\n"
    "um_cs64: .long 0\n"
    ".popsection\n"
    ".text\n"
    ".globl run32\n"
    "run32:\n"
    "	pushq %rbx\n	pushq %rbp\n	pushq %r12\n"
    "	pushq %r13\n	pushq %r14\n	pushq %r15\n"
    "	movq %rsp, um_saved_rsp(%rip)\n"
    "	xorl %eax, %eax\n"
    "	movw %cs, %ax\n"
    "	movl %eax, um_cs64(%rip)\n"
    "	subl $16, %eax\n"
    "	leaq um_stack_top(%rip), %rsp\n"
    "	pushq %rax\n"
    "	pushq %rdi\n"
    "	movl %esi, %eax\n"
    "	lretq\n"
    ".code32\n"
    "um_back64:\n"
    "	pushl %ss:um_cs64\n"
    "	pushl $1f\n"
    "	lretl\n"
    ".code64\n"
    "1:	movq um_saved_rsp(%rip), %rsp\n"
    "	movl %eax, %eax\n"
    "	popq %r15\n	popq %r14\n	popq %r13\n"
    "	popq %r12\n	popq %rbp\n	popq %rbx\n"
    "	ret\n"
    /* 32-bit data accesses need a usable %ds, %es: the user's %ss. */
    ".macro UM_DS\n"
    "	movl %ss, %ecx\n	movl %ecx, %ds\n	movl %ecx, %es\n"
    ".endm\n"
    ".code32\n"
    "um32_syscall: UM_DS\n	syscall\n	jmp um_back64\n"
    "um32_int80: UM_DS\n	int $0x80\n	jmp um_back64\n"
    "um32_sysenter: UM_DS\n	sysenter\n	jmp um_back64\n"
    "um32_int3: UM_DS\n	int3\n	movl $42, %eax\n	jmp um_back64\n"
    "um32_ud2: UM_DS\n	ud2\n	jmp um_back64\n"
    "um32_hlt: UM_DS\n	hlt\n	jmp um_back64\n"
    "um32_into: UM_DS\n	movl $0x7fffffff, %ecx\n	addl $1, %ecx\n"
    "	into\n	movl $43, %eax\n	jmp um_back64\n"
    "um32_icebp: UM_DS\n	.byte 0xf1\n	movl $42, %eax\n	jmp um_back64\n"
    "um32_getcs: UM_DS\n	movl %cs, %eax\n	jmp um_back64\n"
    /* int $n (the two-byte form, n = 0..255) in 32-bit code. */
    ".balign 16\n"
    "um32_intn:\n"
    "	n = 0\n"
    "	.rept 256\n"
    "	.balign 16\n"
    "	.byte 0xcd, n\n"
    "	jmp um_back64\n"
    "	n = n + 1\n"
    "	.endr\n"
    ".code64\n"
    ".balign 16\n"
    "um64_intn:\n"
    "	n = 0\n"
    "	.rept 256\n"
    "	.balign 16\n"
    "	.byte 0xcd, n\n"
    "	ret\n"
    "	n = n + 1\n"
    "	.endr\n");

static int um_pipe[2];
static unsigned short um_cs64_val;

static __attribute__((unused)) unsigned short um_cs(void)
{
	unsigned short cs;

	asm volatile("movw %%cs, %0" : "=r"(cs));
	return cs;
}

static __attribute__((unused)) void um_report(const char *s)
{
	size_t n = strlen(s);

	if (write(um_pipe[1], s, n) != (ssize_t)n)
		_exit(120);
}

/* The handler of a check's child: reports and leaves. */
static __attribute__((unused)) void um_on_fault(int sig, siginfo_t *si,
						void *ucv)
{
	ucontext_t *uc = ucv;
	char buf[96];

	snprintf(buf, sizeof(buf), "sig %d trap %lld err %#llx%s", sig,
		 (long long)uc->uc_mcontext.gregs[REG_TRAPNO],
		 (long long)uc->uc_mcontext.gregs[REG_ERR],
		 um_cs() == um_cs64_val ? " cs64" : " cs?");
	um_report(buf);
	_exit(0);
}

static __attribute__((unused)) void
um_catch(int sig, void (*fn)(int, siginfo_t *, void *))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = fn;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigaction(sig, &sa, NULL);
}

static __attribute__((unused)) void um_catch_faults(void)
{
	static const int sigs[] = { SIGSEGV, SIGILL, SIGTRAP, SIGBUS, SIGFPE };
	unsigned int i;

	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		um_catch(sigs[i], um_on_fault);
}

/* Runs fn(arg) in a child; its outcome into out. */
static __attribute__((unused)) void um_outcome(char *out, size_t size,
					       long (*fn)(long), long arg)
{
	char buf[128];
	int st = 0;
	ssize_t n;
	pid_t pid;

	um_cs64_val = um_cs();
	fflush(stdout);
	if (pipe(um_pipe)) {
		snprintf(out, size, "pipe failed");
		return;
	}
	pid = fork();
	if (pid == 0) {
		long r;

		close(um_pipe[0]);
		um_catch_faults();
		r = fn(arg);
		snprintf(buf, sizeof(buf), "ret %ld", r);
		um_report(buf);
		_exit(0);
	}
	close(um_pipe[1]);
	n = pid > 0 ? read(um_pipe[0], buf, sizeof(buf) - 1) : -1;
	close(um_pipe[0]);
	if (pid < 0 || waitpid(pid, &st, 0) != pid) {
		snprintf(out, size, "fork or wait failed");
		return;
	}
	if (WIFSIGNALED(st))
		snprintf(out, size, "killed %d", WTERMSIG(st));
	else if (n > 0 && WIFEXITED(st) && !WEXITSTATUS(st))
		snprintf(out, size, "%.*s", (int)n, buf);
	else
		snprintf(out, size, "exited %d", WEXITSTATUS(st));
}

/* --- the checks' bodies ---------------------------------------------- */

static volatile int um_handled;
static volatile unsigned short um_handler_cs;

static __attribute__((unused)) void um_count(int sig, siginfo_t *si, void *uc)
{
	um_handled++;
	um_handler_cs = um_cs();
}

static __attribute__((unused)) long um_syscall32(long nr)
{
	return (int)run32(um32_syscall, nr);
}

static __attribute__((unused)) long um_int80_32(long nr)
{
	return (int)run32(um32_int80, nr);
}

static __attribute__((unused)) long um_int80_64(long nr)
{
	long r = nr;

	asm volatile("int $0x80" : "+a"(r) : : "memory");
	return r;
}

static __attribute__((unused)) long um_sysenter32(long unused)
{
	return run32(um32_sysenter, 0);
}

static __attribute__((unused)) long um_sysenter64(long unused)
{
	asm volatile("sysenter" : : : "memory", "rcx", "r11");
	return 0;
}

static __attribute__((unused)) long um_run32_code(long code)
{
	return run32((const void *)code, 0);
}

/* A trap whose handler returns: the 32-bit code goes on (42 + handled). */
static __attribute__((unused)) long um_trap32_resumes(long code)
{
	long r;

	um_catch(SIGTRAP, um_count);
	r = run32((const void *)code, 0);
	return r + 100 * um_handled + (um_handler_cs == um_cs64_val ? 1000 : 0);
}

static __attribute__((unused)) long um_cs32(long unused)
{
	return run32(um32_getcs, 0) == um_cs64_val - 16;
}

static __attribute__((unused)) long um_intn32(long n)
{
	return run32(um32_intn + UM_INTN_STRIDE * n, 0);
}

static __attribute__((unused)) long um_intn64(long n)
{
	((void (*)(void))(um64_intn + UM_INTN_STRIDE * n))();
	return 0;
}

/*
 * Bad frames: a handler rewrites its frame, rt_sigreturn takes it, the
 * IRET cannot return to it. arg: (what << 16) | selector.
 */
enum { UM_BAD_CS = 1, UM_BAD_SS = 2, UM_BAD_RIP32 = 3 };
static volatile long um_bad;

static __attribute__((unused)) void um_spoil(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	greg_t *g = &uc->uc_mcontext.gregs[REG_CSGSFS];
	unsigned long sel = um_bad & 0xffff;

	switch (um_bad >> 16) {
	case UM_BAD_CS:
		*g = (*g & ~0xffffUL) | sel;
		break;
	case UM_BAD_SS:
		*g = (*g & ~(0xffffUL << 48)) | (sel << 48);
		break;
	case UM_BAD_RIP32:
		*g = (*g & ~0xffffUL) | (um_cs64_val - 16);
		uc->uc_mcontext.gregs[REG_RIP] = 0x100000000L;
		break;
	}
}

static __attribute__((unused)) long um_bad_frame64(long how)
{
	um_bad = how;
	um_catch(SIGUSR1, um_spoil);
	raise(SIGUSR1);
	return 0;
}

static __attribute__((unused)) long um_bad_frame32(long how)
{
	um_bad = how;
	um_catch(SIGTRAP, um_spoil);
	return run32(um32_int3, 0);
}

/*
 * A selector of the LDT: there is none, so loading one is a #GP. (An
 * LDTR left as the CPU comes out of reset, base 0 and limit 0xffff,
 * would take the descriptor a program writes at user address 0x1000.)
 */
#include <sys/mman.h>
static __attribute__((unused)) long um_ldt_selector(long unused)
{
	unsigned long long *d =
		mmap((void *)0x1000, 4096, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);

	if (d == MAP_FAILED)
		return -1;
	d[0] = 0x00cff2000000ffffULL; /* data, DPL 3: selector 0x1007 */
	asm volatile("movw $0x1007, %%ax\n\tmovw %%ax, %%es" : : : "rax");
	return 0;
}

/* A handler at a non-canonical address: the IRET to it is a #GP. */
static __attribute__((unused)) long um_noncanonical_handler(long sig)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = (void (*)(int))0x800000000000UL;
	sigaction(sig, &sa, NULL);
	raise(sig);
	return 0;
}

#endif /* UMODE_H */
