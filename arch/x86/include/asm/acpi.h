/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_ACPI_H
#define _ASM_X86_ACPI_H

/*
 * Reads the MADT: registers the local APIC's address and every enabled
 * processor's APIC ID (register_lapic_address(), smp_register_cpu()).
 * Returns 0, or a negative errno when there is no usable MADT (the reason
 * is printed); then the boot CPU is the only one.
 */
int acpi_boot_init(void);

#endif /* _ASM_X86_ACPI_H */
