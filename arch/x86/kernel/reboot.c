// SPDX-License-Identifier: GPL-2.0
#include <linux/kernel.h>
#include <asm/io.h>
#include <asm/processor.h>
#include <asm/reboot.h>

#define QEMU_DEBUG_EXIT_PORT 0xf4

void __noreturn machine_halt(void)
{
	local_irq_disable();
	for (;;)
		halt();
}

/*
 * The keyboard controller's reset line (command 0xfe); QEMU's -no-reboot
 * turns the reset into an exit with status 0.
 */
void __noreturn machine_restart(void)
{
	local_irq_disable();
	outb(0xfe, 0x64);
	machine_halt();
}

void __noreturn machine_power_off(enum qemu_exit_code code)
{
	outl(code, QEMU_DEBUG_EXIT_PORT);
	/* Without the device (real hardware, another emulator) just stop. */
	machine_halt();
}
