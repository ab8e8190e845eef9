// SPDX-License-Identifier: GPL-2.0
/*
 * The CPU masks. CPU 0, the boot CPU, is possible and online from the first
 * instruction; the architecture adds the CPUs the firmware reports to the
 * possible mask during setup_arch(), and each of them sets its own online
 * bit once it takes IPIs.
 */
#include <linux/cpumask.h>

struct cpumask __cpu_possible_mask = { .bits = { 1UL } };
struct cpumask __cpu_online_mask = { .bits = { 1UL } };
