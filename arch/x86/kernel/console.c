// SPDX-License-Identifier: GPL-2.0
/* The system console (<linux/console.h>) is the serial port (serial.c). */
#include <linux/console.h>
#include <asm/serial.h>

void console_write(const char *s, size_t len)
{
	serial_write(s, len);
}

int console_getc(void)
{
	return serial_getc();
}
