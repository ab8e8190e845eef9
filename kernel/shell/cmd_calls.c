// SPDX-License-Identifier: GPL-2.0
/*
 * Console commands on static calls (<linux/static_call.h>):
 *
 *   calls [glob]            each call: name, target (%pS), sites
 *                           ("indirect" without CONFIG_STATIC_CALL), module
 *   calls <name> <target>   retargets it (for testing) to one of the
 *                           targets it is known to take: a symbol, or
 *                           NULL (a _NULL call), or return0
 */
#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/shell.h>
#include <linux/static_call.h>
#include <linux/string.h>
#include <linux/text-patching.h>

#define CALLS_SHOW_KNOWN 8

struct calls_show {
	const char *glob;
	unsigned int shown, total;
};

static void calls_show_one(struct static_call_key *key, struct module *mod,
			   void *arg)
{
	struct calls_show *s = arg;
	unsigned int sites = static_call_nr_sites(key) - !!key->tramp;

	s->total++;
	if (s->glob && !glob_match(s->glob, key->name))
		return;
	s->shown++;
	/* Without CONFIG_STATIC_CALL every call is an indirect call. */
	if (!IS_ENABLED(CONFIG_STATIC_CALL))
		shell_printf("%-28s %-40pS %5s %s\n", key->name, key->func,
			     "indirect", mod ? mod->name : "");
	else
		shell_printf("%-28s %-40pS %5u %s\n", key->name, key->func,
			     sites, mod ? mod->name : "");
}

static int calls_list(const char *glob)
{
	struct calls_show s = { .glob = glob };

	shell_printf("%-28s %-40s %5s %s\n", "call", "target", "sites",
		     "module");
	static_call_for_each(calls_show_one, &s);
	shell_printf("%u of %u static calls\n", s.shown, s.total);
	if (glob && !s.shown) {
		shell_printf("calls: no static call matches %s\n", glob);
		return -ENOENT;
	}
	return 0;
}

struct calls_find {
	const char *name;
	struct static_call_key *key;
};

static void calls_find_one(struct static_call_key *key, struct module *mod,
			   void *arg)
{
	struct calls_find *f = arg;

	if (!f->key && !strcmp(key->name, f->name))
		f->key = key;
}

/* The target a word names: NULL, return0, or a symbol; false if none. */
static bool calls_target(const char *word, void **func)
{
	unsigned long addr;

	if (!strcmp(word, "NULL")) {
		*func = NULL;
		return true;
	}
	if (!strcmp(word, "return0")) {
		*func = (void *)__static_call_return0;
		return true;
	}
	addr = kallsyms_lookup_name(word);
	*func = (void *)addr;
	return addr;
}

static void calls_say_known(struct static_call_key *key)
{
	void *known[CALLS_SHOW_KNOWN];
	int n = static_call_known_targets(key, known, CALLS_SHOW_KNOWN), i;

	shell_printf("calls: %s's known targets:", key->name);
	for (i = 0; i < n; i++)
		shell_printf(" %ps", known[i]);
	shell_printf("\n");
}

static int calls_set(const char *name, const char *word)
{
	struct calls_find f = { .name = name };
	struct text_poke_stats before = text_poke_get_stats();
	void *func;
	int ret;

	static_call_for_each(calls_find_one, &f);
	if (!f.key) {
		shell_printf("calls: no static call %s\n", name);
		return -ENOENT;
	}
	if (!calls_target(word, &func)) {
		shell_printf("calls: no symbol %s\n", word);
		return -ENOENT;
	}
	ret = static_call_retarget(name, func);
	if (ret == -EINVAL && func != static_call_query_key(f.key)) {
		shell_printf("calls: %s is not a known target of %s: refused\n",
			     word, name);
		calls_say_known(f.key);
		return ret;
	}
	if (ret) {
		shell_printf("calls: %s -> %s: failed: %d\n", name, word, ret);
		return ret;
	}
	shell_printf("calls: %s -> %pS: %lu sites in %lu batches, %lu sync rounds\n",
		     name, func, text_poke_get_stats().sites - before.sites,
		     text_poke_get_stats().batches - before.batches,
		     text_poke_get_stats().sync_rounds - before.sync_rounds);
	return 0;
}

static int cmd_calls(int argc, char **argv)
{
	if (argc == 3)
		return calls_set(argv[1], argv[2]);
	return calls_list(argc > 1 ? argv[1] : NULL);
}

const struct shell_cmd shell_call_cmds[] = {
	{ "calls", "[glob] | <call> <target>",
	  "static calls: target, sites, module; or retarget one (testing)", 0,
	  2, true, cmd_calls, NULL },
	{ NULL }
};
