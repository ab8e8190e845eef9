/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_PRINTK_H
#define _LINUX_PRINTK_H

#include <linux/types.h>
#include <linux/compiler.h>

/* A message's level travels as a two-byte prefix, "\001" plus a digit. */
#define KERN_SOH "\001"
#define KERN_EMERG KERN_SOH "0"
#define KERN_ALERT KERN_SOH "1"
#define KERN_CRIT KERN_SOH "2"
#define KERN_ERR KERN_SOH "3"
#define KERN_WARNING KERN_SOH "4"
#define KERN_NOTICE KERN_SOH "5"
#define KERN_INFO KERN_SOH "6"
#define KERN_DEBUG KERN_SOH "7"
#define KERN_DEFAULT ""
#define KERN_CONT KERN_SOH "c"

#define LOGLEVEL_DEFAULT 6
/* loglevel= takes 0..8; console_verbose() prints everything. */
#define CONSOLE_LOGLEVEL_MAX 8
#define CONSOLE_LOGLEVEL_MOTORMOUTH 15

#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif

int printk(const char *fmt, ...) __printf(1, 2);
int vprintk(const char *fmt, va_list args) __printf(1, 0);
void console_verbose(void);
struct kernel_param;
int param_set_loglevel(const char *val, const struct kernel_param *kp);
/* The log of everything printed: a position in it, and a search since one. */
u64 printk_log_end(void);
bool printk_log_contains(u64 pos, const char *s);
/* Copies the log from *pos on into buf, advancing *pos; 0 at the end. */
size_t printk_log_read(u64 *pos, char *buf, size_t size);

#define pr_emerg(fmt, ...) printk(KERN_EMERG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_crit(fmt, ...) printk(KERN_CRIT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err(fmt, ...) printk(KERN_ERR pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...) printk(KERN_WARNING pr_fmt(fmt), ##__VA_ARGS__)
#define pr_notice(fmt, ...) printk(KERN_NOTICE pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...) printk(KERN_INFO pr_fmt(fmt), ##__VA_ARGS__)
#define pr_debug(fmt, ...) printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_cont(fmt, ...) printk(KERN_CONT fmt, ##__VA_ARGS__)

#endif /* _LINUX_PRINTK_H */
