// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel command line: blank-separated "name=value" or "name" words.
 * Double quotes group blanks into a word ("foo=a b" or foo="a b") and a
 * backslash takes the next character literally (\", \\, \'); both are
 * removed before the word is used. Each word is matched against the
 * registered struct kernel_param entries ('-' and '_' compare equal); when
 * a name comes twice, the last word wins.
 */
#include <linux/kernel.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <asm/setup.h>

extern const struct kernel_param __start___param[], __stop___param[];

char saved_command_line[SAVED_COMMAND_LINE_SIZE];
/* Values handed to charp parameters point here, so it must outlive boot. */
static char param_buf[SAVED_COMMAND_LINE_SIZE];

int param_set_int(const char *val, const struct kernel_param *kp)
{
	return kstrtoint(val, 0, kp->arg);
}

int param_set_uint(const char *val, const struct kernel_param *kp)
{
	unsigned long v;
	int ret = kstrtoul(val, 0, &v);

	if (ret)
		return ret;
	if (v > UINT_MAX)
		return -ERANGE;
	*(unsigned int *)kp->arg = v;
	return 0;
}

int param_set_ulong(const char *val, const struct kernel_param *kp)
{
	return kstrtoul(val, 0, kp->arg);
}

/* "name" alone, or name=1, y, Y, on / 0, n, N, off; nothing else. */
int param_set_bool(const char *val, const struct kernel_param *kp)
{
	bool *b = kp->arg;

	if (!val || !strcmp(val, "1") || !strcmp(val, "y") ||
	    !strcmp(val, "Y") || !strcmp(val, "on"))
		*b = true;
	else if (!strcmp(val, "0") || !strcmp(val, "n") || !strcmp(val, "N") ||
		 !strcmp(val, "off"))
		*b = false;
	else
		return -EINVAL;
	return 0;
}

int param_set_charp(const char *val, const struct kernel_param *kp)
{
	*(const char **)kp->arg = val;
	return 0;
}

bool parameq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char ca = *a == '-' ? '_' : *a, cb = *b == '-' ? '_' : *b;

		if (ca != cb)
			return false;
	}
	return *a == *b;
}
EXPORT_SYMBOL(parameq);

/* module_param()'s setter: a bare name only for the bools. */
static int param_call_set(const struct kernel_param *kp, const char *val)
{
	if (!val && !(kp->ops->flags & KERNEL_PARAM_OPS_FL_NOARG))
		return -EINVAL;
	return kp->ops->set(val, kp);
}

/* A rejected value: the parameter keeps the value it had. */
static void param_refused(const char *name, const char *val, int err)
{
	const char *why = err == -ERANGE ? "out of range" :
			  err == -EINVAL ? "not a valid value" :
					   "error";

	pr_err("Kernel parameter %s%s%s: %s (%d), ignored\n", name,
	       val ? "=" : "", val ? val : "", why, err);
}

/* One word for kp; a refused value is reported and changes nothing. */
static void param_apply(const struct kernel_param *kp, char *name, char *val)
{
	int ret;

	if (kp->setup)
		ret = kp->setup(val ? val : name + strlen(name));
	else if (kp->ops)
		ret = param_call_set(kp, val);
	else if (!val && kp->set != param_set_bool)
		ret = -EINVAL;
	else
		ret = kp->set(val, kp);
	if (ret)
		param_refused(name, val, ret);
}

static int apply_param(char *name, char *val)
{
	const struct kernel_param *kp;

	for (kp = __start___param; kp < __stop___param; kp++) {
		if (parameq(kp->name, name)) {
			param_apply(kp, name, val);
			return 0;
		}
	}
	pr_warn("Unknown kernel command line parameter \"%s%s%s\"\n", name,
		val ? "=" : "", val ? val : "");
	return 1;
}

static bool param_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/*
 * Decodes the word at p in place, up to the first blank outside quotes:
 * '"' opens and closes a quoted part, '\' takes the next character as it
 * is; both are dropped. Returns where the word ended; *quoted tells
 * whether a quote was left open (then the word runs to the end).
 */
static char *param_decode_word(char *p, bool *quoted)
{
	char *out = p;

	*quoted = false;
	for (; *p && (*quoted || !param_blank(*p)); p++) {
		if (*p == '"')
			*quoted = !*quoted;
		else if (*p == '\\' && p[1])
			*out++ = *++p;
		else
			*out++ = *p;
	}
	if (out < p)
		*out = '\0';
	return p;
}

/*
 * The words are the ones GRUB hands over: it puts a word that holds a blank
 * in double quotes ("foo=a b") and a '\' before each '\', '"' and '\''.
 * A value may be quoted on its own as well (foo="a b").
 */
char *__next_arg(char *args, char **param, char **val, bool *open_quote)
{
	char *end;

	while (param_blank(*args))
		args++;
	*param = NULL;
	*val = NULL;
	*open_quote = false;
	if (!*args)
		return args;
	end = param_decode_word(args, open_quote);
	if (*end)
		*end++ = '\0';
	*param = args;
	*val = strchr(args, '=');
	if (*val)
		*(*val)++ = '\0';
	return end;
}
EXPORT_SYMBOL(__next_arg);

char *next_arg(char *args, char **param, char **val)
{
	bool quoted;
	char *end = __next_arg(args, param, val, &quoted);

	if (quoted)
		pr_warn("Kernel command line: a '\"' is not closed: \"%s%s%s\" runs to the end of the line\n",
			*param, *val ? "=" : "", *val ?: "");
	return end;
}

/* A charp value would point into the copy, freed on return. */
int parse_args_for(const char *cmdline, const struct kernel_param *kp)
{
	size_t size = strlen(cmdline) + 1;
	char *buf = kmalloc(size, GFP_KERNEL), *s, *name, *val;
	int found = 0;

	if (!buf)
		return -ENOMEM;
	memcpy(buf, cmdline, size);
	for (s = next_arg(buf, &name, &val); name;
	     s = next_arg(s, &name, &val)) {
		if (!parameq(kp->name, name))
			continue;
		param_apply(kp, name, val);
		found++;
	}
	kfree(buf);
	return found;
}

int __init parse_args(const char *cmdline)
{
	char *s = param_buf, *name, *val;
	int unknown = 0;

	strscpy(saved_command_line, cmdline, sizeof(saved_command_line));
	strscpy(param_buf, cmdline, sizeof(param_buf));
	for (s = next_arg(s, &name, &val); name; s = next_arg(s, &name, &val))
		unknown += apply_param(name, val);
	return unknown;
}
