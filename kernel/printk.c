// SPDX-License-Identifier: GPL-2.0
/*
 * printk: format into a line buffer and write it to the serial console when
 * its level is below the console log level. Messages carry their level as a
 * KERN_SOH prefix; KERN_CONT continues the previous line.
 */
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <asm/serial.h>

static int console_loglevel = CONFIG_LOG_LEVEL;
core_param(loglevel, console_loglevel, int, 0644);

void console_loglevel_set(int level)
{
	console_loglevel = level;
}

/* Splits "\001N" off fmt; returns the level, or -1 for KERN_CONT. */
static int printk_get_level(const char **fmt)
{
	const char *s = *fmt;
	int level = LOGLEVEL_DEFAULT;

	while (s[0] == KERN_SOH[0] && s[1]) {
		if (s[1] >= '0' && s[1] <= '7')
			level = s[1] - '0';
		else if (s[1] == 'c')
			level = -1;
		s += 2;
	}
	*fmt = s;
	return level;
}

int vprintk(const char *fmt, va_list args)
{
	static char buf[1024];
	static int last_level = LOGLEVEL_DEFAULT;
	const char *text = buf;
	int level, len;

	/* The level may come from an argument ("%s", KERN_WARNING), as in
	 * Linux, so it is parsed from the formatted text. */
	len = vscnprintf(buf, sizeof(buf), fmt, args);
	level = printk_get_level(&text);
	if (level < 0)
		level = last_level;
	last_level = level;
	if (level >= console_loglevel)
		return 0;
	len -= text - buf;
	serial_write(text, len);
	return len;
}

int printk(const char *fmt, ...)
{
	va_list args;
	int ret;

	va_start(args, fmt);
	ret = vprintk(fmt, args);
	va_end(args);
	return ret;
}

/* "prefix: 00 01 02 ..." sixteen bytes a line. */
void print_hex_dump_bytes(const char *prefix, const void *buf, size_t len)
{
	const u8 *p = buf;
	size_t i;

	for (i = 0; i < len; i += 16)
		printk(KERN_INFO "%s%*ph\n", prefix, (int)min_t(size_t, 16, len - i),
		       p + i);
}
