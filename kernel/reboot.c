// SPDX-License-Identifier: GPL-2.0
/* The end of the machine for generic code: <linux/reboot.h>. */
#include <linux/kernel.h>
#include <linux/reboot.h>
#include <asm/reboot.h>

void __noreturn kernel_power_off(void)
{
	machine_power_off(QEMU_EXIT_SUCCESS);
}

void __noreturn kernel_power_off_failed(void)
{
	machine_power_off(QEMU_EXIT_TESTS_FAILED);
}

void __noreturn kernel_restart(const char *cmd)
{
	machine_restart();
}
