/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_IRQFLAGS_H
#define _LINUX_IRQFLAGS_H

#include <linux/types.h>
#include <asm/processor.h>

/*
 * Saving and restoring this CPU's interrupt flag. flags is an unsigned long
 * holding RFLAGS as local_irq_save() found it; local_irq_restore() enables
 * interrupts again only if they were enabled then, so pairs nest.
 * local_irq_enable() and local_irq_disable() come from <asm/processor.h>.
 */
static inline unsigned long arch_local_irq_save(void)
{
	unsigned long flags = native_save_fl();

	local_irq_disable();
	return flags;
}

static inline void arch_local_irq_restore(unsigned long flags)
{
	if (flags & X86_EFLAGS_IF)
		local_irq_enable();
}

static inline bool irqs_disabled_flags(unsigned long flags)
{
	return !(flags & X86_EFLAGS_IF);
}

static inline bool irqs_disabled(void)
{
	return irqs_disabled_flags(native_save_fl());
}

#define local_irq_save(flags)                    \
	do {                                     \
		(flags) = arch_local_irq_save(); \
	} while (0)
#define local_irq_restore(flags) arch_local_irq_restore(flags)

#endif /* _LINUX_IRQFLAGS_H */
