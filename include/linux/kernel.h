/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_KERNEL_H
#define _LINUX_KERNEL_H

#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/limits.h>
#include <linux/errno.h>
#include <linux/printk.h>
#include <linux/bug.h>

#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
#define min_t(t, a, b) ((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max_t(t, a, b) ((t)(a) > (t)(b) ? (t)(a) : (t)(b))

#define ALIGN(x, a) (((x) + ((a) - 1)) & ~((typeof(x))(a) - 1))
#define ALIGN_DOWN(x, a) ((x) & ~((typeof(x))(a) - 1))
#define IS_ALIGNED(x, a) (((x) & ((typeof(x))(a) - 1)) == 0)
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))


int vsnprintf(char *buf, size_t size, const char *fmt, va_list args)
	__printf(3, 0);
int snprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);
int scnprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);
int vscnprintf(char *buf, size_t size, const char *fmt, va_list args)
	__printf(3, 0);
int sprintf(char *buf, const char *fmt, ...) __printf(2, 3);

int kstrtoul(const char *s, unsigned int base, unsigned long *res);
int kstrtoint(const char *s, unsigned int base, int *res);
unsigned long simple_strtoul(const char *cp, char **endp, unsigned int base);

void __noreturn panic(const char *fmt, ...) __printf(1, 2) __cold;
/*
 * After an oops has been printed: ends the current task if it is a kthread
 * that asked for it (PF_OOPS_EXITS: KUnit's case threads) and the oops hit
 * it in process context; panics otherwise.
 */
void __noreturn oops_end(const char *what) __cold;

/*
 * How far the boot has come. Until SYSTEM_SCHEDULING everything runs in
 * the boot CPU's idle context, where nothing may sleep and nothing needs
 * to (no lock is contended): might_sleep() checks start there.
 */
enum system_states {
	SYSTEM_BOOTING,
	SYSTEM_SCHEDULING, /* rest_init(): the first kthread exists */
	SYSTEM_RUNNING, /* the init thread runs */
};
extern enum system_states system_state;

#endif /* _LINUX_KERNEL_H */
