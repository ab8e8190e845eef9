// SPDX-License-Identifier: GPL-2.0
/*
 * uentry: every way into ring 0 from user mode, from 64-bit and from
 * 32-bit code, and IRET back with bad frames (umode.h runs them), each
 * against what this kernel must do. Prints "uentry: NAME: OUTCOME" per
 * check (and "(want X)" where it differs) and exits with the number of
 * differences. The kernel goes on whatever a check does.
 *
 * Where this kernel differs from Linux 6.1 on purpose: no 32-bit
 * system-call ABI, so SYSCALL from 32-bit code returns -ENOSYS for every
 * number, SYSENTER is a #GP and int $0x80 too (Linux: its i386 calls,
 * which return to a 32-bit vDSO a 64-bit process does not have: SIGSEGV).
 */
#include "umode.h"

#include <stdlib.h>

struct check {
	const char *name;
	long (*fn)(long);
	long arg;
	const char *want;
};

#define BAD(what, sel) (((long)(what) << 16) | (sel))

static const struct check checks[] = {
	{ "cs32", um_cs32, 0, "ret 1" },
	{ "syscall32_enosys", um_syscall32, 1000, "ret -38" },
	{ "syscall32_getpid", um_syscall32, 20, "ret -38" },
	{ "syscall32_0", um_syscall32, 0, "ret -38" },
	{ "int80_32", um_int80_32, 20, "sig 11 trap 13 err 0x802 cs64" },
	{ "int80_64", um_int80_64, 39, "sig 11 trap 13 err 0x802 cs64" },
	{ "sysenter32", um_sysenter32, 0, "sig 11 trap 13 err 0 cs64" },
	{ "sysenter64", um_sysenter64, 0, "sig 4 trap 6 err 0 cs64" },
	{ "int3_32", um_run32_code, (long)um32_int3,
	  "sig 5 trap 3 err 0 cs64" },
	{ "int3_32_resumes", um_trap32_resumes, (long)um32_int3, "ret 1142" },
	/* QEMU's TCG (qemu64) takes icebp as an invalid opcode. */
	{ "icebp_32", um_run32_code, (long)um32_icebp,
	  "sig 4 trap 6 err 0 cs64" },
	{ "ud2_32", um_run32_code, (long)um32_ud2, "sig 4 trap 6 err 0 cs64" },
	{ "hlt_32", um_run32_code, (long)um32_hlt,
	  "sig 11 trap 13 err 0 cs64" },
	{ "into_32", um_run32_code, (long)um32_into,
	  "sig 11 trap 4 err 0 cs64" },
	{ "bad_cs_64", um_bad_frame64, BAD(UM_BAD_CS, 0x0f),
	  "sig 11 trap 13 err 0xc cs64" },
	{ "bad_cs_kernel_64", um_bad_frame64, BAD(UM_BAD_CS, 0x08),
	  "sig 11 trap 13 err 0x8 cs64" },
	{ "bad_ss_64", um_bad_frame64, BAD(UM_BAD_SS, 0x0f),
	  "sig 11 trap 13 err 0xc cs64" },
	{ "bad_ss_gdt_64", um_bad_frame64, BAD(UM_BAD_SS, 0x83),
	  "sig 11 trap 13 err 0x80 cs64" },
	{ "bad_ss_null_64", um_bad_frame64, BAD(UM_BAD_SS, 0),
	  "sig 11 trap 13 err 0 cs64" },
	{ "bad_cs_32", um_bad_frame32, BAD(UM_BAD_CS, 0x0f),
	  "sig 11 trap 13 err 0xc cs64" },
	{ "bad_ss_32", um_bad_frame32, BAD(UM_BAD_SS, 0x0f),
	  "sig 11 trap 13 err 0xc cs64" },
	{ "bad_rip32", um_bad_frame64, BAD(UM_BAD_RIP32, 0),
	  "sig 11 trap 13 err 0 cs64" },
	{ "ldt_selector", um_ldt_selector, 0,
	  "sig 11 trap 13 err 0x1004 cs64" },
	{ "noncanonical_handler", um_noncanonical_handler, SIGUSR1,
	  "sig 11 trap 13 err 0 cs64" },
	{ "noncanonical_segv_handler", um_noncanonical_handler, SIGSEGV,
	  "killed 11" },
};

/*
 * int $n for every n from both modes, in one child (a fork per n is too
 * slow under TCG): only the DPL-3 gates (3, 4) open; every other is a #GP
 * whose error code names the gate (QEMU: n * 16 + 2, the 16-byte slot).
 */
static sigjmp_buf intn_jump;
static char intn_got[128];

static void intn_on_fault(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;

	snprintf(intn_got, sizeof(intn_got), "sig %d trap %lld err %#llx%s",
		 sig, (long long)uc->uc_mcontext.gregs[REG_TRAPNO],
		 (long long)uc->uc_mcontext.gregs[REG_ERR],
		 um_cs() == um_cs64_val ? " cs64" : " cs?");
	siglongjmp(intn_jump, 1);
}

static int intn_mode(int mode)
{
	char want[128];
	volatile int bad = 0, n;

	um_catch(SIGSEGV, intn_on_fault);
	um_catch(SIGTRAP, intn_on_fault);
	for (n = 0; n < 256; n++) {
		snprintf(intn_got, sizeof(intn_got), "no fault");
		if (!sigsetjmp(intn_jump, 1)) {
			if (mode)
				um_intn32(n);
			else
				um_intn64(n);
		}
		if (n == 3)
			snprintf(want, sizeof(want), "sig 5 trap 3 err 0 cs64");
		else if (n == 4)
			snprintf(want, sizeof(want),
				 "sig 11 trap 4 err 0 cs64");
		else
			snprintf(want, sizeof(want),
				 "sig 11 trap 13 err %#x cs64", n * 16 + 2);
		if (strcmp(intn_got, want)) {
			printf("uentry: int%d_%d: %s (want %s)\n",
			       mode ? 32 : 64, n, intn_got, want);
			bad++;
		}
	}
	return bad;
}

static int intn_all(void)
{
	int bad = 0, mode, st;

	for (mode = 0; mode < 2; mode++) {
		pid_t pid;

		fflush(stdout);
		um_cs64_val = um_cs();
		pid = fork();
		if (pid == 0) {
			fflush(stdout);
			_exit(intn_mode(mode) ? 1 : 0);
		}
		if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
		    WEXITSTATUS(st))
			bad++;
	}
	printf("uentry: intn_all: %s\n", bad ? "differences" : "as expected");
	return bad;
}

int main(void)
{
	char got[128];
	unsigned int i;
	int bad = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; i < sizeof(checks) / sizeof(checks[0]); i++) {
		const struct check *c = &checks[i];

		um_outcome(got, sizeof(got), c->fn, c->arg);
		if (strcmp(got, c->want)) {
			printf("uentry: %s: %s (want %s)\n", c->name, got,
			       c->want);
			bad++;
		} else {
			printf("uentry: %s: %s\n", c->name, got);
		}
	}
	bad += intn_all();
	printf("uentry: %d differences\n", bad);
	return bad > 100 ? 100 : bad;
}
