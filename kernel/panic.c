// SPDX-License-Identifier: GPL-2.0
#include <linux/kernel.h>
#include <linux/atomic.h>
#include <linux/export.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <asm/processor.h>
#include <asm/reboot.h>
#include <asm/stacktrace.h>

unsigned long nr_warnings;
EXPORT_SYMBOL_GPL(nr_warnings);

/* The CPU that panics, or -1: the first one to get here owns the end. */
static atomic_t panic_cpu = ATOMIC_INIT(-1);

void __noreturn panic(const char *fmt, ...)
{
	static char buf[512];
	int this, old = -1;
	va_list args;

	local_irq_disable();
	console_verbose();
	this = smp_processor_id();
	if (!atomic_try_cmpxchg(&panic_cpu, &old, this)) {
		if (old == this) /* a panic while panicking: stop quietly */
			machine_power_off(QEMU_EXIT_PANIC);
		machine_halt(); /* leave the console to the panicking CPU */
	}
	smp_send_stop();
	va_start(args, fmt);
	vscnprintf(buf, sizeof(buf), fmt, args);
	va_end(args);
	pr_emerg("Kernel panic - not syncing: %s\n", buf);
	pr_emerg("CPU: %d\n", this);
	dump_stack();
	pr_emerg("---[ end Kernel panic - not syncing: %s ]---\n", buf);
	machine_power_off(QEMU_EXIT_PANIC);
}
EXPORT_SYMBOL(panic);

void __warn(const char *file, int line, unsigned long caller, const char *fmt,
	    ...)
{
	va_list args;

	__atomic_fetch_add(&nr_warnings, 1, __ATOMIC_RELAXED);
	pr_warn("------------[ cut here ]------------\n");
	if (file)
		pr_warn("WARNING: CPU: %u at %s:%d %pS\n", smp_processor_id(),
			file, line, (void *)caller);
	else
		pr_warn("WARNING: CPU: %u at %pS\n", smp_processor_id(),
			(void *)caller);
	if (fmt) {
		va_start(args, fmt);
		vprintk(fmt, args);
		va_end(args);
	}
	show_stack_from((unsigned long)__builtin_frame_address(0), KERN_WARNING);
	pr_warn("---[ end trace ]---\n");
}
EXPORT_SYMBOL(__warn);

void __noreturn oops_end(const char *what)
{
	struct task_struct *t = current;

	if (!in_interrupt() && (t->flags & PF_OOPS_EXITS) && t->kthread) {
		pr_emerg("---[ end trace: %s ends task %s/%d ]---\n", what,
			 t->comm, t->pid);
		kthread_exit(-EFAULT);
	}
	panic("Fatal exception: %s", what);
}

void __noreturn __bug(const char *file, int line, const char *cond)
{
	local_irq_disable();
	console_verbose();
	pr_emerg("kernel BUG at %s:%d!%s%s\n", file, line,
		 cond ? " BUG_ON: " : "", cond ? cond : "");
	pr_emerg("Oops: BUG on CPU%u in task %s/%d\n", smp_processor_id(),
		 current->comm, current->pid);
	dump_stack();
	oops_end("BUG");
}
EXPORT_SYMBOL(__bug);
