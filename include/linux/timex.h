/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_TIMEX_H
#define _LINUX_TIMEX_H

/*
 * The cycle counter, as generic code reads it: u64 get_cycles(void) from
 * the architecture (<asm/timex.h>; its contract is in <linux/tick.h>).
 * Under QEMU -icount it counts executed instructions.
 */
#include <asm/timex.h>

#endif /* _LINUX_TIMEX_H */
