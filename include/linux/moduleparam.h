/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_MODULEPARAM_H
#define _LINUX_MODULEPARAM_H

#include <linux/compiler.h>
#include <linux/types.h>

/*
 * Kernel command line parameters, "name=value" or "name" (for bools:
 * "name" alone is true, and the values are 1, y, Y, on / 0, n, N, off). Each
 * registered parameter is a struct kernel_param in the __param section; the
 * parser (kernel/params.c) matches names exactly ('-' and '_' are the same)
 * and calls the setter, which returns 0 or a negative errno.
 */
struct kernel_param {
	const char *name;
	int (*set)(const char *val, const struct kernel_param *kp);
	void *arg;
	int (*setup)(char *val);
};

int param_set_int(const char *val, const struct kernel_param *kp);
int param_set_uint(const char *val, const struct kernel_param *kp);
int param_set_ulong(const char *val, const struct kernel_param *kp);
int param_set_bool(const char *val, const struct kernel_param *kp);
int param_set_charp(const char *val, const struct kernel_param *kp);

#define __kernel_param(pname, setter, parg, setupfn)                      \
	static const struct kernel_param __UNIQUE_ID(param) __used         \
		__section("__param") __aligned(sizeof(void *)) = {         \
			.name = pname,                                     \
			.set = setter,                                     \
			.arg = parg,                                       \
			.setup = setupfn,                                  \
		}

/* core_param(name, var, type, perm): "name=value" sets var (type int,
 * uint, ulong, bool or charp). perm is accepted for Linux compatibility. */
#define core_param(name, var, type, perm) \
	__kernel_param(#name, param_set_##type, &(var), NULL)
#define core_param_named(pname, var, type) \
	__kernel_param(pname, param_set_##type, &(var), NULL)
/* "name=value" calls setter(value, kp) with kp->arg == &var. */
#define core_param_cb(pname, setter, var) \
	__kernel_param(pname, setter, &(var), NULL)

/* __setup("name", fn): fn(value) for "name=value", fn("") for "name". */
#define __setup(str, fn) __kernel_param(str, NULL, NULL, fn)
#define early_param(str, fn) __setup(str, fn)

/* Parses cmdline (copied); returns the number of unknown parameters. */
int parse_args(const char *cmdline);
extern char saved_command_line[];

/*
 * Splits the first word off args and decodes it in place (quotes and
 * backslashes, see kernel/params.c): *param is its name, *val the text
 * after its first '=' or NULL. Returns the rest of args; *param is NULL
 * when there was no word left.
 */
char *next_arg(char *args, char **param, char **val);
/*
 * Parses cmdline again for kp alone, as parse_args() did (every word that
 * names it, in order, through its setter), into kp->arg: a test reads the
 * value the line asks for there, not by searching the text. Returns how
 * many words named kp, or -ENOMEM.
 */
int parse_args_for(const char *cmdline, const struct kernel_param *kp);

#endif /* _LINUX_MODULEPARAM_H */
