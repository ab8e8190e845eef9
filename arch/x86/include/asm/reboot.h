/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_REBOOT_H
#define _ASM_X86_REBOOT_H

#include <linux/compiler.h>

/*
 * QEMU's isa-debug-exit device (port 0xf4) ends the emulator with status
 * (code << 1) | 1, so every status the kernel chooses is odd and a reset
 * (status 0) always means a crash.
 */
enum qemu_exit_code {
	QEMU_EXIT_SUCCESS = 0x10,	/* status 33: done, all tests passed */
	QEMU_EXIT_TESTS_FAILED = 0x11,	/* status 35: done, some tests failed */
	QEMU_EXIT_PANIC = 0x12,		/* status 37: kernel panic */
	QEMU_EXIT_NO_TESTS = 0x13,	/* status 39: done, no test selected */
	/* 0x14, status 41: GRUB could not load the kernel (scripts/mkiso.sh) */
	QEMU_EXIT_RESTART = 0x15,	/* status 43: machine_restart() (reboot) */
	/* 0x20 + code, status 65-127: init exited (kernel/process.c) */
	/* 0x40 + signal, status 129-255: init was killed (kernel/process.c) */
};

void __noreturn machine_power_off(enum qemu_exit_code code);
void __noreturn machine_halt(void);
void __noreturn machine_restart(void);

#endif /* _ASM_X86_REBOOT_H */
