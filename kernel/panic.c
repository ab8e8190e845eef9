// SPDX-License-Identifier: GPL-2.0
#include <linux/kernel.h>
#include <asm/processor.h>
#include <asm/reboot.h>
#include <asm/stacktrace.h>

unsigned long nr_warnings;

void __noreturn panic(const char *fmt, ...)
{
	static char buf[512];
	static bool in_panic;
	va_list args;

	local_irq_disable();
	if (in_panic) /* a panic while panicking: stop quietly */
		machine_power_off(QEMU_EXIT_PANIC);
	in_panic = true;
	va_start(args, fmt);
	vscnprintf(buf, sizeof(buf), fmt, args);
	va_end(args);
	pr_emerg("Kernel panic - not syncing: %s\n", buf);
	dump_stack();
	pr_emerg("---[ end Kernel panic - not syncing: %s ]---\n", buf);
	machine_power_off(QEMU_EXIT_PANIC);
}

void __warn(const char *file, int line, unsigned long caller, const char *fmt,
	    ...)
{
	va_list args;

	nr_warnings++;
	pr_warn("------------[ cut here ]------------\n");
	pr_warn("WARNING: at %s:%d %pS\n", file, line, (void *)caller);
	if (fmt) {
		va_start(args, fmt);
		vprintk(fmt, args);
		va_end(args);
	}
	show_stack_from((unsigned long)__builtin_frame_address(0), KERN_WARNING);
	pr_warn("---[ end trace ]---\n");
}

void __noreturn __bug(const char *file, int line, const char *cond)
{
	pr_emerg("kernel BUG at %s:%d!%s%s\n", file, line,
		 cond ? " BUG_ON: " : "", cond ? cond : "");
	panic("BUG");
}
