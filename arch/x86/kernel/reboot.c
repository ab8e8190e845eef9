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
 * Under QEMU the debug-exit device first ends it with status 43, so that
 * a reboot is told from a triple fault (both resets are status 0 with
 * -no-reboot); elsewhere that write does nothing and the keyboard
 * controller's reset line (command 0xfe) resets the machine.
 */
void __noreturn machine_restart(void)
{
	local_irq_disable();
	outl(QEMU_EXIT_RESTART, QEMU_DEBUG_EXIT_PORT);
	outb(0xfe, 0x64);
	machine_halt();
}

void __noreturn machine_power_off(enum qemu_exit_code code)
{
	outl(code, QEMU_DEBUG_EXIT_PORT);
	/* Without the device (real hardware, another emulator) just stop. */
	machine_halt();
}
