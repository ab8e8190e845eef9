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
struct kernel_param;
struct module;

/*
 * How a module_param() type is set and shown (Linux's struct). set gets
 * the text after '=' (NULL for a bare "name" when flags has
 * KERNEL_PARAM_OPS_FL_NOARG: the bools) and returns 0 or -errno, leaving
 * the value as it was on an error; get writes the value as text into a
 * PAGE_SIZE buffer and returns its length.
 */
#define KERNEL_PARAM_OPS_FL_NOARG (1 << 0)
struct kernel_param_ops {
	unsigned int flags;
	int (*set)(const char *val, const struct kernel_param *kp);
	int (*get)(char *buffer, const struct kernel_param *kp);
	void (*free)(void *arg);
};

/* module_param_string(): a char array of maxlen bytes, NUL included. */
struct kparam_string {
	unsigned int maxlen;
	char *string;
};

/* module_param_array(): up to max elements, the count in *num if num. */
struct kparam_array {
	unsigned int max;
	unsigned int elemsize;
	unsigned int *num;
	const struct kernel_param_ops *ops;
	void *elem;
};

struct kernel_param {
	const char *name;
	/* core_param() and __setup(): a setter, or a function of the value. */
	int (*set)(const char *val, const struct kernel_param *kp);
	int (*setup)(char *val);
	/* module_param() and friends: the module (NULL built in), the ops. */
	struct module *mod;
	const struct kernel_param_ops *ops;
	u16 perm;
	union {
		void *arg;
		const struct kparam_string *str;
		const struct kparam_array *arr;
	};
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
/* The same, saying whether the word had a '"' left open; no warning. */
char *__next_arg(char *args, char **param, char **val, bool *open_quote);
/*
 * Parses cmdline again for kp alone, as parse_args() did (every word that
 * names it, in order, through its setter), into kp->arg: a test reads the
 * value the line asks for there, not by searching the text. Returns how
 * many words named kp, or -ENOMEM.
 */
int parse_args_for(const char *cmdline, const struct kernel_param *kp);

/*
 * Module parameters, Linux's API. In a module (-DMODULE) a parameter is
 * called by its name and set by load_module(name, args) before init
 * ("insmod m x=5 s=hi" on the console); built in, it is called
 * KBUILD_MODNAME.name and set from the command line ("foo.x=5"). Each is a
 * struct kernel_param in __param; .modinfo gets "parmtype=name:type" and,
 * from MODULE_PARM_DESC(), "parm=name:description", as Linux writes them.
 * The types: bool, invbool, bint, byte, short, ushort, int, uint, long,
 * ulong, ullong, hexint, charp. perm is kept (there is no sysfs to honour
 * it); values are read back through ops->get (the console's modinfo).
 */
#ifdef MODULE
#define MODULE_PARAM_PREFIX /* empty */
#define __MODULE_PARM_INFO(tag, name, info)                                   \
	static const char __UNIQUE_ID(modinfo)[] __used __section(".modinfo") \
		__aligned(1) = #tag "=" #name ":" info
#else
#define MODULE_PARAM_PREFIX KBUILD_MODNAME "."
/* Built in: no .modinfo to carry. */
#define __MODULE_PARM_INFO(tag, name, info)
#endif

#define MODULE_PARM_DESC(_parm, desc) __MODULE_PARM_INFO(parm, _parm, desc)
#define __MODULE_PARM_TYPE(name, _type) \
	__MODULE_PARM_INFO(parmtype, name, _type)

#define __module_param_call(prefix, pname, pops, parg, pperm)              \
	static const char __param_str_##pname[] = prefix #pname;           \
	static const struct kernel_param __param_##pname __used __section( \
		"__param") __aligned(sizeof(void *)) = {                   \
		.name = __param_str_##pname,                               \
		.mod = THIS_MODULE,                                        \
		.ops = pops,                                               \
		.perm = pperm,                                             \
		{ parg },                                                  \
	}

/* Compile-time check that var has the parameter type's C type. */
#define __param_check(name, p, type)                            \
	static inline type __maybe_unused *__check_##name(void) \
	{                                                       \
		return (p);                                     \
	}
#define param_check_byte(name, p) __param_check(name, p, unsigned char)
#define param_check_short(name, p) __param_check(name, p, short)
#define param_check_ushort(name, p) __param_check(name, p, unsigned short)
#define param_check_int(name, p) __param_check(name, p, int)
#define param_check_uint(name, p) __param_check(name, p, unsigned int)
#define param_check_long(name, p) __param_check(name, p, long)
#define param_check_ulong(name, p) __param_check(name, p, unsigned long)
#define param_check_ullong(name, p) __param_check(name, p, unsigned long long)
#define param_check_hexint(name, p) __param_check(name, p, unsigned int)
#define param_check_charp(name, p) __param_check(name, p, char *)
#define param_check_bool(name, p) __param_check(name, p, bool)
#define param_check_invbool(name, p) __param_check(name, p, bool)
#define param_check_bint(name, p) param_check_int(name, p)

/* module_param_cb(name, ops, arg, perm): a parameter with its own ops. */
#define module_param_cb(name, ops, arg, perm) \
	__module_param_call(MODULE_PARAM_PREFIX, name, ops, arg, perm)
#define module_param_named(name, value, type, perm)             \
	param_check_##type(name, &(value));                     \
	module_param_cb(name, &param_ops_##type, &value, perm); \
	__MODULE_PARM_TYPE(name, #type)
#define module_param(name, type, perm) \
	module_param_named(name, name, type, perm)
#define module_param_unsafe(name, type, perm) module_param(name, type, perm)

/* A char array filled from the value; too long a value is refused. */
#define module_param_string(name, string, len, perm)                          \
	static const struct kparam_string __param_string_##name = { len,      \
								    string }; \
	__module_param_call(MODULE_PARAM_PREFIX, name, &param_ops_string,     \
			    .str = &__param_string_##name, perm);             \
	__MODULE_PARM_TYPE(name, "string")

/* Comma-separated values; *nump (if nump) gets their count. */
#define module_param_array_named(name, array, type, nump, perm)          \
	param_check_##type(name, &(array)[0]);                           \
	static const struct kparam_array __param_arr_##name = {          \
		.max = ARRAY_SIZE(array),                                \
		.num = nump,                                             \
		.ops = &param_ops_##type,                                \
		.elemsize = sizeof(array[0]),                            \
		.elem = array,                                           \
	};                                                               \
	__module_param_call(MODULE_PARAM_PREFIX, name, &param_array_ops, \
			    .arr = &__param_arr_##name, perm);           \
	__MODULE_PARM_TYPE(name, "array of " #type)
#define module_param_array(name, type, nump, perm) \
	module_param_array_named(name, name, type, nump, perm)

#define __PARAM_TYPE(type)                                                    \
	extern const struct kernel_param_ops param_ops_##type;                \
	int param_set_##type(const char *val, const struct kernel_param *kp); \
	int param_get_##type(char *buffer, const struct kernel_param *kp)
__PARAM_TYPE(byte);
__PARAM_TYPE(short);
__PARAM_TYPE(ushort);
__PARAM_TYPE(int);
__PARAM_TYPE(uint);
__PARAM_TYPE(long);
__PARAM_TYPE(ulong);
__PARAM_TYPE(ullong);
__PARAM_TYPE(hexint);
__PARAM_TYPE(charp);
__PARAM_TYPE(bool);
__PARAM_TYPE(invbool);
__PARAM_TYPE(bint);
__PARAM_TYPE(string);
extern const struct kernel_param_ops param_array_ops;

/* Linux's name comparison: '-' and '_' are the same. */
bool parameq(const char *a, const char *b);

/*
 * Parses args for the parameters params[0..num): every word names one
 * ("name=value", or "name" for a bool) or the call fails. A word is
 * decoded in place (next_arg()), so a charp value points into args. 0, or
 * -ENOENT (unknown name) / -EINVAL (bad value or word) / -ERANGE / -ENOSPC
 * after one line naming who (doing, e.g. the module), the parameter and
 * the value; a parameter set before the bad word keeps its new value.
 */
int parse_module_args(const char *doing, char *args,
		      const struct kernel_param *params, unsigned int num);

#endif /* _LINUX_MODULEPARAM_H */
