// SPDX-License-Identifier: GPL-2.0
/*
 * printk: format into a line buffer and write it to the serial console when
 * its level is below the console log level. Messages carry their level as a
 * KERN_SOH prefix; KERN_CONT continues the previous line.
 *
 * printk_lock, taken with interrupts disabled, serializes the formatting
 * and the output, so that lines from different CPUs do not interleave. It
 * must never cost a message, least of all the one explaining a crash: a
 * CPU that finds the lock held by itself (printk() reentered from a fault
 * or a WARN inside printk()) prints from a buffer on its stack without the
 * lock, and one that waits PRINTK_LOCK_TIMEOUT_US for another CPU (which
 * died or was stopped while printing) breaks the lock.
 */
#include <linux/kernel.h>
#include <linux/console.h>
#include <linux/delay.h>
#include <linux/export.h>
#include <linux/moduleparam.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#define PRINTK_LOCK_TIMEOUT_US 1000000
#define PRINTK_EMERGENCY_SIZE 256

static DEFINE_SPINLOCK(printk_lock);

static int console_loglevel = CONFIG_LOG_LEVEL;

/* loglevel=N, 0..8; anything else is refused and the level stays. */
int param_set_loglevel(const char *val, const struct kernel_param *kp)
{
	int level, ret = kstrtoint(val, 0, &level);

	if (ret)
		return ret;
	if (level < 0 || level > CONSOLE_LOGLEVEL_MAX)
		return -ERANGE;
	*(int *)kp->arg = level;
	return 0;
}
core_param_cb("loglevel", param_set_loglevel, console_loglevel);

/* An oops or a panic is printed whatever loglevel= said. */
void console_verbose(void)
{
	WRITE_ONCE(console_loglevel, CONSOLE_LOGLEVEL_MOTORMOUTH);
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

/*
 * The log: the last LOG_BUF_LEN bytes of text printed at any level, for
 * tests that check what a WARN said (and, later, dmesg). log_end counts
 * every byte ever logged; byte n lives at log_buf[n % LOG_BUF_LEN].
 */
#define LOG_BUF_LEN (64 * 1024)
static char log_buf[LOG_BUF_LEN];
static u64 log_end;

static void log_store(const char *text, int len)
{
	int i;

	for (i = 0; i < len; i++)
		log_buf[(log_end + i) % LOG_BUF_LEN] = text[i];
	WRITE_ONCE(log_end, log_end + len);
}

u64 printk_log_end(void)
{
	return READ_ONCE(log_end);
}
EXPORT_SYMBOL_GPL(printk_log_end);

/*
 * Copies the log from *pos (a printk_log_end() value; moved up to the
 * oldest byte kept if older) into buf, at most size bytes, and advances
 * *pos past them. Returns the number of bytes copied, 0 at the end.
 */
size_t printk_log_read(u64 *pos, char *buf, size_t size)
{
	u64 end = printk_log_end();
	size_t n = 0;

	if (end - *pos > LOG_BUF_LEN)
		*pos = end - LOG_BUF_LEN;
	while (*pos + n < end && n < size) {
		buf[n] = log_buf[(*pos + n) % LOG_BUF_LEN];
		n++;
	}
	*pos += n;
	return n;
}

/* True if the text logged since pos (a printk_log_end() value) has s. */
bool printk_log_contains(u64 pos, const char *s)
{
	size_t n = strlen(s), i;
	u64 end = printk_log_end(), at;

	if (end - pos > LOG_BUF_LEN) /* the start was overwritten */
		pos = end - LOG_BUF_LEN;
	for (at = pos; at + n <= end; at++) {
		for (i = 0; i < n; i++)
			if (log_buf[(at + i) % LOG_BUF_LEN] != s[i])
				break;
		if (i == n)
			return true;
	}
	return false;
}
EXPORT_SYMBOL_GPL(printk_log_contains);

/* Formats into buf, logs it and writes it out if its level is printed. */
static int printk_emit(char *buf, size_t size, const char *fmt, va_list args)
{
	static int last_level = LOGLEVEL_DEFAULT;
	const char *text = buf;
	int level, len;

	/* The level may come from an argument ("%s", KERN_WARNING), as in
	 * Linux, so it is parsed from the formatted text. */
	len = vscnprintf(buf, size, fmt, args);
	level = printk_get_level(&text);
	if (level < 0)
		level = last_level;
	last_level = level;
	len -= text - buf;
	log_store(text, len);
	if (level >= console_loglevel)
		return 0;
	console_write(text, len);
	return len;
}

static noinline int printk_emit_unlocked(const char *fmt, va_list args)
{
	char buf[PRINTK_EMERGENCY_SIZE];

	return printk_emit(buf, sizeof(buf), fmt, args);
}

static __printf(1, 2) void printk_unlocked(const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	printk_emit_unlocked(fmt, args);
	va_end(args);
}

/* Takes printk_lock, see the top; false if this CPU holds it already. */
static bool printk_lock_acquire(void)
{
	unsigned long us;
	u32 holder;

	if (spin_held_by_this_cpu(&printk_lock))
		return false;
	for (us = 0; us < PRINTK_LOCK_TIMEOUT_US; us++) {
		if (spin_trylock(&printk_lock))
			return true;
		udelay(1);
	}
	holder = READ_ONCE(printk_lock.owner);
	spin_lock_init(&printk_lock);
	if (!spin_trylock(&printk_lock))
		return false;
	printk_unlocked(KERN_ERR "printk: lock broken: CPU%d held it for over %d ms\n",
			(int)holder - 1, PRINTK_LOCK_TIMEOUT_US / 1000);
	return true;
}

int vprintk(const char *fmt, va_list args)
{
	static char buf[1024];
	unsigned long flags;
	int len;

	local_irq_save(flags);
	if (printk_lock_acquire()) {
		len = printk_emit(buf, sizeof(buf), fmt, args);
		spin_unlock(&printk_lock);
	} else {
		len = printk_emit_unlocked(fmt, args);
	}
	local_irq_restore(flags);
	return len;
}
EXPORT_SYMBOL(vprintk);

int printk(const char *fmt, ...)
{
	va_list args;
	int ret;

	va_start(args, fmt);
	ret = vprintk(fmt, args);
	va_end(args);
	return ret;
}
EXPORT_SYMBOL(printk);
