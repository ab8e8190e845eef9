/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_IRQFLAGS_H
#define _LINUX_IRQFLAGS_H

/*
 * The engine's host fuzzer (tests/fuzz/engine/) runs in user mode, where
 * cli faults: a thread's "interrupt flag" is a thread-local variable
 * instead, with the kernel header's API. Nothing interrupts a thread, so
 * the flag only answers irqs_disabled() and nests as the real one does.
 */
#include <linux/types.h>
#include <asm/processor.h>

extern _Thread_local unsigned long fuzz_irq_flags;

static inline unsigned long arch_local_irq_save(void)
{
	unsigned long flags = fuzz_irq_flags;

	fuzz_irq_flags = 0;
	return flags;
}

static inline void arch_local_irq_restore(unsigned long flags)
{
	fuzz_irq_flags = flags;
}

static inline bool irqs_disabled_flags(unsigned long flags)
{
	return !(flags & X86_EFLAGS_IF);
}

static inline bool irqs_disabled(void)
{
	return irqs_disabled_flags(fuzz_irq_flags);
}

#define local_irq_save(flags)                    \
	do {                                     \
		(flags) = arch_local_irq_save(); \
	} while (0)
#define local_irq_restore(flags) arch_local_irq_restore(flags)
/* asm/processor.h's cli and sti, which fault in user mode. */
#define local_irq_disable() ((void)arch_local_irq_save())
#define local_irq_enable() arch_local_irq_restore(X86_EFLAGS_IF)

#endif /* _LINUX_IRQFLAGS_H */
