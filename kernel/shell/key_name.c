// SPDX-License-Identifier: GPL-2.0
/*
 * The name a person reads for a static key (the console's keys, key and
 * sites commands): a tracepoint's key is the tracepoint ("sched_switch",
 * type "tracepoint"), an element of an array of keys is "name[3]", a key
 * at the start of its symbol is the symbol; anything else (a key inside
 * a structure) stays "symbol+0x18". A module's key names its module too.
 */
#include <linux/kernel.h>
#include <linux/jump_label.h>
#include <linux/jump_label_ratelimit.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/shell.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#define TRACEPOINT_PREFIX "__tracepoint_"

/* The tracepoint whose key this is, or NULL. */
static struct tracepoint *key_tracepoint(struct static_key *key,
					 const char *sym, unsigned long offset)
{
	struct tracepoint *tp;

	if (strncmp(sym, TRACEPOINT_PREFIX, strlen(TRACEPOINT_PREFIX)) ||
	    offset != offsetof(struct tracepoint, key))
		return NULL;
	tp = container_of((struct static_key_false *)key, struct tracepoint,
			  key);
	return tp->name && !strcmp(tp->name, sym + strlen(TRACEPOINT_PREFIX)) ?
		       tp :
		       NULL;
}

/*
 * The index of key in an array of elements of elem bytes that the
 * symbol (size bytes, key at offset) is, or -1.
 */
static long key_index(unsigned long size, unsigned long offset, size_t elem)
{
	if (size < 2 * elem || size % elem || offset % elem)
		return -1;
	return offset / elem;
}

/* Whether the symbol has room for a deferred key there, and it is one. */
static bool key_is_deferred(struct static_key *key, unsigned long size,
			    unsigned long offset)
{
	struct static_key_deferred *d =
		container_of(key, struct static_key_deferred, key);

	return offset + sizeof(*d) <= size &&
	       d->work.work.func == jump_label_update_timeout;
}

void shell_key_name(struct static_key *key, char *buf, size_t size,
		    const char **modname, const char **type)
{
	struct module *mod = __module_address((unsigned long)key);
	unsigned long sym_size, offset;
	struct tracepoint *tp;
	const char *sym, *mod_sym;
	long i;

	*modname = mod ? mod->name : "";
	*type = key->type & JUMP_TYPE_TRUE ? "true" : "false";
	sym = kallsyms_lookup((unsigned long)key, &sym_size, &offset);
	if (!sym)
		sym = module_kallsyms_lookup((unsigned long)key, &sym_size,
					     &offset, &mod_sym);
	if (!sym) {
		scnprintf(buf, size, "%px", key);
		return;
	}
	tp = key_tracepoint(key, sym, offset);
	if (tp) {
		*type = "tracepoint";
		strscpy(buf, tp->name, size);
		return;
	}
	if (key_is_deferred(key, sym_size, offset))
		i = key_index(sym_size, offset,
			      sizeof(struct static_key_deferred));
	else
		i = key_index(sym_size, offset, sizeof(struct static_key));
	if (i >= 0)
		scnprintf(buf, size, "%s[%ld]", sym, i);
	else if (offset)
		scnprintf(buf, size, "%s+%#lx", sym, offset);
	else
		strscpy(buf, sym, size);
}
