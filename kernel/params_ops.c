// SPDX-License-Identifier: GPL-2.0
/*
 * module_param()'s types (Linux's param_ops_*), and the parser of a
 * module's arguments. A setter takes the text after '=' and either stores
 * the value or returns -errno with the value as it was: -EINVAL for text
 * that is not a value of the type, -ERANGE for one the type cannot hold,
 * -ENOSPC for a string longer than its array. A getter writes the value
 * and a '\n' into a PAGE_SIZE buffer, as Linux's do for sysfs.
 */
#include <linux/kernel.h>
#include <linux/export.h>
#include <linux/limits.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <asm/page.h>

/* A number in base 0 (0x.., 0.., decimal) within [min, max]. */
static int param_parse_signed(const char *val, long long min, long long max,
			      long long *res)
{
	bool negative = *val == '-';
	unsigned long v;
	int ret;

	if (*val == '-' || *val == '+')
		val++;
	if (*val == '-' || *val == '+')
		return -EINVAL;
	ret = kstrtoul(val, 0, &v);
	if (ret)
		return ret;
	if (negative ? v > (unsigned long)-(min + 1) + 1 : v > (u64)max)
		return -ERANGE;
	*res = negative ? (long long)(0 - v) : (long long)v;
	return 0;
}

static int param_parse_unsigned(const char *val, unsigned long long max,
				unsigned long long *res)
{
	unsigned long v;
	int ret;

	if (*val == '-')
		return -EINVAL;
	ret = kstrtoul(val, 0, &v);
	if (ret)
		return ret;
	if (v > max)
		return -ERANGE;
	*res = v;
	return 0;
}

#define PARAM_OPS(name)                                    \
	const struct kernel_param_ops param_ops_##name = { \
		.set = param_set_##name,                   \
		.get = param_get_##name,                   \
	};                                                 \
	EXPORT_SYMBOL(param_ops_##name);                   \
	EXPORT_SYMBOL(param_set_##name);                   \
	EXPORT_SYMBOL(param_get_##name)

#define PARAM_GET(name, type, fmt)                                        \
	int param_get_##name(char *buffer, const struct kernel_param *kp) \
	{                                                                 \
		return scnprintf(buffer, PAGE_SIZE, fmt "\n",             \
				 *(type *)kp->arg);                       \
	}

#define PARAM_SIGNED(name, type, min, max, fmt)                              \
	int param_set_##name(const char *val, const struct kernel_param *kp) \
	{                                                                    \
		long long v;                                                 \
		int ret = param_parse_signed(val, min, max, &v);             \
                                                                             \
		if (!ret)                                                    \
			*(type *)kp->arg = v;                                \
		return ret;                                                  \
	}                                                                    \
	PARAM_GET(name, type, fmt)                                           \
	PARAM_OPS(name)

#define PARAM_UNSIGNED(name, type, max, fmt)                                 \
	int param_set_##name(const char *val, const struct kernel_param *kp) \
	{                                                                    \
		unsigned long long v;                                        \
		int ret = param_parse_unsigned(val, max, &v);                \
                                                                             \
		if (!ret)                                                    \
			*(type *)kp->arg = v;                                \
		return ret;                                                  \
	}                                                                    \
	PARAM_GET(name, type, fmt)                                           \
	PARAM_OPS(name)

PARAM_UNSIGNED(byte, unsigned char, 255, "%hhu");
PARAM_SIGNED(short, short, -32768, 32767, "%hi");
PARAM_UNSIGNED(ushort, unsigned short, 65535, "%hu");
PARAM_SIGNED(long, long, LONG_MIN, LONG_MAX, "%li");
PARAM_UNSIGNED(ullong, unsigned long long, ULLONG_MAX, "%llu");
PARAM_UNSIGNED(hexint, unsigned int, UINT_MAX, "%#08x");

/* int, uint and ulong set through kernel/params.c's setters. */
PARAM_GET(int, int, "%i")
PARAM_OPS(int);
PARAM_GET(uint, unsigned int, "%u")
PARAM_OPS(uint);
PARAM_GET(ulong, unsigned long, "%lu")
PARAM_OPS(ulong);

int param_get_charp(char *buffer, const struct kernel_param *kp)
{
	const char *s = *(const char **)kp->arg;

	return scnprintf(buffer, PAGE_SIZE, "%s\n", s ?: "(null)");
}
PARAM_OPS(charp);

int param_get_bool(char *buffer, const struct kernel_param *kp)
{
	return scnprintf(buffer, PAGE_SIZE, "%c\n",
			 *(bool *)kp->arg ? 'Y' : 'N');
}

/* The bools: a bare "name" is true (KERNEL_PARAM_OPS_FL_NOARG). */
#define PARAM_OPS_NOARG(name)                              \
	const struct kernel_param_ops param_ops_##name = { \
		.flags = KERNEL_PARAM_OPS_FL_NOARG,        \
		.set = param_set_##name,                   \
		.get = param_get_##name,                   \
	};                                                 \
	EXPORT_SYMBOL(param_ops_##name);                   \
	EXPORT_SYMBOL(param_set_##name);                   \
	EXPORT_SYMBOL(param_get_##name)

PARAM_OPS_NOARG(bool);

/* A bool's value into *v, by param_set_bool()'s rules. */
static int param_read_bool(const char *val, const struct kernel_param *kp,
			   bool *v)
{
	struct kernel_param tmp = *kp;

	tmp.arg = v;
	return param_set_bool(val, &tmp);
}

/* A bool stored inverted: "quiet" sets a variable called verbose false. */
int param_set_invbool(const char *val, const struct kernel_param *kp)
{
	bool v;
	int ret = param_read_bool(val, kp, &v);

	if (!ret)
		*(bool *)kp->arg = !v;
	return ret;
}

int param_get_invbool(char *buffer, const struct kernel_param *kp)
{
	return scnprintf(buffer, PAGE_SIZE, "%c\n",
			 *(bool *)kp->arg ? 'N' : 'Y');
}
PARAM_OPS_NOARG(invbool);

/* An int that holds a bool's value: 0 or 1. */
int param_set_bint(const char *val, const struct kernel_param *kp)
{
	bool v;
	int ret = param_read_bool(val, kp, &v);

	if (!ret)
		*(int *)kp->arg = v;
	return ret;
}

int param_get_bint(char *buffer, const struct kernel_param *kp)
{
	return param_get_int(buffer, kp);
}
PARAM_OPS_NOARG(bint);

/* module_param_string(): a copy into the array, NUL included, or -ENOSPC. */
int param_set_string(const char *val, const struct kernel_param *kp)
{
	const struct kparam_string *kps = kp->str;

	if (strlen(val) + 1 > kps->maxlen)
		return -ENOSPC;
	strscpy(kps->string, val, kps->maxlen);
	return 0;
}

int param_get_string(char *buffer, const struct kernel_param *kp)
{
	return scnprintf(buffer, PAGE_SIZE, "%s\n", kp->str->string);
}
PARAM_OPS(string);

/*
 * module_param_array(): "a,b,c" sets elements 0..2 and *num to 3. The
 * elements go into a copy first, so a bad one leaves the array and its
 * count as they were. The commas become NULs: a charp element points into
 * val, which lives as long as the parameter's arguments.
 */
static int param_array_set(const char *val, const struct kernel_param *kp)
{
	const struct kparam_array *arr = kp->arr;
	struct kernel_param elem = *kp;
	char *p = (char *)val, *comma;
	size_t i, len = strlen(val);
	unsigned int n = 0;
	void *copy;
	int ret = 0;

	copy = kmalloc(arr->max * arr->elemsize, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, arr->elem, arr->max * arr->elemsize);
	for (; p && !ret; p = comma, n++) {
		if (n == arr->max) {
			ret = -EINVAL;
			break;
		}
		comma = strchr(p, ',');
		if (comma)
			*comma++ = '\0';
		elem.arg = copy + n * arr->elemsize;
		ret = arr->ops->set(p, &elem);
	}
	if (!ret) {
		memcpy(arr->elem, copy, arr->max * arr->elemsize);
		if (arr->num)
			*arr->num = n;
	} else {
		/* The value as it was, for the refusal's message. */
		for (i = 0; i < len; i++)
			if (!val[i])
				((char *)val)[i] = ',';
	}
	kfree(copy);
	return ret;
}

/* The elements set (all of them without a count), comma-separated. */
static int param_array_get(char *buffer, const struct kernel_param *kp)
{
	const struct kparam_array *arr = kp->arr;
	unsigned int i, n = arr->num ? *arr->num : arr->max;
	struct kernel_param elem = *kp;
	int len = 0, ret;

	for (i = 0; i < n && len < PAGE_SIZE - 1; i++) {
		if (i)
			buffer[len++] = ',';
		elem.arg = arr->elem + i * arr->elemsize;
		ret = arr->ops->get(buffer + len, &elem);
		if (ret < 0)
			return ret;
		len += ret;
		/* Each element's getter ends it with a '\n': drop it. */
		if (len && buffer[len - 1] == '\n')
			len--;
	}
	buffer[len] = '\0';
	return scnprintf(buffer + len, PAGE_SIZE - len, "\n") + len;
}

const struct kernel_param_ops param_array_ops = {
	.set = param_array_set,
	.get = param_array_get,
};
EXPORT_SYMBOL(param_array_ops);

static const char *param_why(int err)
{
	switch (err) {
	case -ENOENT:
		return "no such parameter";
	case -ERANGE:
		return "value out of range";
	case -ENOSPC:
		return "value too long";
	case -ENOMEM:
		return "out of memory";
	default:
		return "not a valid value";
	}
}

static const struct kernel_param *param_find(const struct kernel_param *params,
					     unsigned int num, const char *name)
{
	unsigned int i;

	for (i = 0; i < num; i++)
		if (parameq(params[i].name, name))
			return &params[i];
	return NULL;
}

/* One word of a module's arguments: 0 or -errno after its one line. */
static int parse_one(const char *doing, char *name, char *val,
		     const struct kernel_param *params, unsigned int num)
{
	const struct kernel_param *kp;
	int ret;

	if (!*name) {
		pr_err("%s: argument '=%s' has no parameter name, refused (%d)\n",
		       doing, val ?: "", -EINVAL);
		return -EINVAL;
	}
	kp = param_find(params, num, name);
	if (!kp || !kp->ops) {
		ret = -ENOENT;
	} else if (!val && !(kp->ops->flags & KERNEL_PARAM_OPS_FL_NOARG)) {
		pr_err("%s: parameter %s needs a value (%s=...), refused (%d)\n",
		       doing, name, name, -EINVAL);
		return -EINVAL;
	} else {
		ret = kp->ops->set(val, kp);
	}
	if (ret)
		pr_err("%s: parameter %s%s%s: %s, refused (%d)\n", doing, name,
		       val ? "=" : "", val ?: "", param_why(ret), ret);
	return ret;
}

int parse_module_args(const char *doing, char *args,
		      const struct kernel_param *params, unsigned int num)
{
	char *name, *val;
	bool open_quote;
	int ret;

	for (;;) {
		args = __next_arg(args, &name, &val, &open_quote);
		if (!name)
			return 0;
		if (open_quote) {
			pr_err("%s: argument %s%s%s: a '\"' is not closed, refused (%d)\n",
			       doing, name, val ? "=" : "", val ?: "", -EINVAL);
			return -EINVAL;
		}
		ret = parse_one(doing, name, val, params, num);
		if (ret)
			return ret;
	}
}
EXPORT_SYMBOL(parse_module_args);
