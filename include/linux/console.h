/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_CONSOLE_H
#define _LINUX_CONSOLE_H

/*
 * The system console, as generic code reads and writes it (the console
 * shell, kernel/shell/): on x86 the serial port COM1, polled
 * (arch/x86/kernel/console.c). Any context; neither call waits for input.
 */
#include <linux/types.h>

/* Writes len bytes of s; a '\n' ends a line (the port sends CR LF). */
void console_write(const char *s, size_t len);
/* The next byte received, or -1 if none is waiting. Never blocks. */
int console_getc(void);

#endif /* _LINUX_CONSOLE_H */
