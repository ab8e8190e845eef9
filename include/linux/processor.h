/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_PROCESSOR_H
#define _LINUX_PROCESSOR_H

/*
 * What generic code uses of the processor, as in Linux: cpu_relax() in a
 * busy wait, from the architecture's <asm/processor.h>.
 */
#include <asm/processor.h>

#endif /* _LINUX_PROCESSOR_H */
