// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel command line: whitespace-separated "name=value" or "name"
 * words, values optionally in double quotes. Each word is matched against
 * the registered struct kernel_param entries ('-' and '_' compare equal).
 */
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include <asm/setup.h>

extern const struct kernel_param __start___param[], __stop___param[];

char saved_command_line[COMMAND_LINE_SIZE];
/* Values handed to charp parameters point here, so it must outlive boot. */
static char param_buf[COMMAND_LINE_SIZE];

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

int param_set_bool(const char *val, const struct kernel_param *kp)
{
	bool *b = kp->arg;

	if (!val || !*val || !strcmp(val, "1") || !strcmp(val, "y") ||
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

static bool param_name_eq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char ca = *a == '-' ? '_' : *a, cb = *b == '-' ? '_' : *b;

		if (ca != cb)
			return false;
	}
	return *a == *b;
}

static int apply_param(char *name, char *val)
{
	const struct kernel_param *kp;
	int ret;

	for (kp = __start___param; kp < __stop___param; kp++) {
		if (!param_name_eq(kp->name, name))
			continue;
		if (kp->setup)
			ret = kp->setup(val ? val : name + strlen(name));
		else if (!val && kp->set != param_set_bool)
			ret = -EINVAL;
		else
			ret = kp->set(val, kp);
		if (ret)
			pr_err("kernel parameter %s: bad value '%s' (%d)\n", name,
			       val ? val : "", ret);
		return 0;
	}
	pr_warn("Unknown kernel command line parameter \"%s%s%s\"\n", name,
		val ? "=" : "", val ? val : "");
	return 1;
}

/* Splits off the next word; returns NULL at the end of the line. */
static char *next_word(char **s, char **val)
{
	char *p = *s, *word;
	bool quoted = false;

	while (*p == ' ' || *p == '\t' || *p == '\n')
		p++;
	if (!*p)
		return NULL;
	word = p;
	*val = NULL;
	for (; *p && (quoted || (*p != ' ' && *p != '\t' && *p != '\n')); p++) {
		if (*p == '"')
			quoted = !quoted;
		else if (*p == '=' && !*val)
			*val = p + 1;
	}
	if (*p)
		*p++ = '\0';
	*s = p;
	if (*val) {
		(*val)[-1] = '\0';
		if (**val == '"') {
			(*val)++;
			if (**val && (*val)[strlen(*val) - 1] == '"')
				(*val)[strlen(*val) - 1] = '\0';
		}
	}
	return word;
}

int parse_args(const char *cmdline)
{
	char *s = param_buf, *word, *val;
	int unknown = 0;

	strscpy(saved_command_line, cmdline, sizeof(saved_command_line));
	strscpy(param_buf, cmdline, sizeof(param_buf));
	while ((word = next_word(&s, &val)))
		unknown += apply_param(word, val);
	return unknown;
}
