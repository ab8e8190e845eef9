/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_REBOOT_H
#define _LINUX_REBOOT_H

/*
 * How generic code ends the machine, by Linux's names (kernel/reboot.c,
 * over the arch's machine_*() of <asm/reboot.h>). Under QEMU the power-off
 * is the isa-debug-exit device, whose exit status tells the host how the
 * run went (Documentation/testing.rst): kernel_power_off() reports
 * success (status 33), kernel_power_off_failed() a failure the run found
 * (status 35). Without the device the machine halts.
 */
#include <linux/compiler.h>

void __noreturn kernel_power_off(void);
void __noreturn kernel_power_off_failed(void);
/* Resets the machine (QEMU -no-reboot: exit status 0). cmd is unused. */
void __noreturn kernel_restart(const char *cmd);

#endif /* _LINUX_REBOOT_H */
