/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_THREADS_H
#define _LINUX_THREADS_H

/* The most CPUs the kernel runs on; CPU numbers are 0 .. NR_CPUS - 1. */
#define NR_CPUS CONFIG_NR_CPUS

#endif /* _LINUX_THREADS_H */
