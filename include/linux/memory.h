/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_MEMORY_H
#define _LINUX_MEMORY_H

#include <linux/mutex.h>

/*
 * Serializes every write of kernel text: the patch engine's queue and
 * alias mapping (<asm/text-patching.h>), the module loader's copy of a
 * module's text. A static key flip takes it once, around the whole batch,
 * inside jump_label_mutex (the lock order: <linux/module.h>).
 */
extern struct mutex text_mutex;

#endif /* _LINUX_MEMORY_H */
