// SPDX-License-Identifier: GPL-2.0
/*
 * Console commands on static keys: keys, key, sites, stats.
 *
 * The keys are those with sites, as the engine's read-only walk finds
 * them (<linux/jump_label_introspect.h>); keys without a site are
 * invisible (help says so). Names come from kallsyms.
 */
#include <linux/kernel.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <linux/jump_label.h>
#include <linux/jump_label_introspect.h>
#include <linux/jump_label_ratelimit.h>
#include <linux/kallsyms.h>
#include <linux/init.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/shell.h>
#include <linux/string.h>
#include <linux/text-patching.h>
#include <linux/uaccess.h>

/* The key's name (kernel/shell/key_name.c) and its module's. */
static void key_name(struct static_key *key, char *buf, size_t size,
		     const char **modname)
{
	const char *type;

	shell_key_name(key, buf, size, modname, &type);
}

/* Says so if the walk of the keys found no memory; its return value. */
static int key_walk_error(int ret)
{
	if (ret < 0)
		shell_printf("error: out of memory (%d)\n", ret);
	return ret;
}

struct key_find {
	const char *name;
	struct static_key *key;
	struct module *mod;
};

/*
 * "name", or "module:name" for a module's key. A module's key comes with
 * a reference of its module: the caller uses it after the walk.
 */
static int key_find_one(const struct static_key_info *info, void *data)
{
	struct key_find *f = data;
	const char *colon = strchr(f->name, ':'), *modname;
	char buf[128];

	key_name(info->key, buf, sizeof(buf), &modname);
	if (!colon ? strcmp(buf, f->name) :
		     strcmp(buf, colon + 1) ||
			     strlen(modname) != colon - f->name ||
			     strncmp(modname, f->name, colon - f->name))
		return 0;
	f->mod = __module_address((unsigned long)info->key);
	if (!f->mod || try_module_get(f->mod))
		f->key = info->key;
	return 1;
}

/*
 * The key called name, for the command cmd; key_put() after use. Or an
 * ERR_PTR after a line saying why: -ENOENT, -ENOMEM.
 */
static struct static_key *key_get(const char *name, const char *cmd,
				  struct module **mod)
{
	struct key_find f = { .name = name };

	if (key_walk_error(static_key_for_each_key(key_find_one, &f)) < 0)
		return ERR_PTR(-ENOMEM);
	if (!f.key) {
		shell_printf(
			"%s: %s: no such key with sites; 'keys' lists them\n",
			cmd, name);
		return ERR_PTR(-ENOENT);
	}
	*mod = f.mod;
	return f.key;
}

static void key_put(struct module *mod)
{
	if (mod)
		module_put(mod);
}

/*
 * A deferred key's timeout, or 0: the key is the start of a symbol as
 * large as a struct static_key_deferred whose work is the deferred
 * dec's (every deferred key's work has that function from its definer).
 */
static unsigned long key_deferred_timeout(struct static_key *key)
{
	struct static_key_deferred *d =
		container_of(key, struct static_key_deferred, key);
	unsigned long size, offset;
	const char *modname;

	if ((!kallsyms_lookup((unsigned long)key, &size, &offset) &&
	     !module_kallsyms_lookup((unsigned long)key, &size, &offset,
				     &modname)) ||
	    offset % sizeof(*d) || offset + sizeof(*d) > size)
		return 0;
	return d->work.work.func == jump_label_update_timeout ? d->timeout : 0;
}

static void key_print(const struct static_key_info *info)
{
	unsigned long timeout = key_deferred_timeout(info->key);
	const char *modname, *type;
	char name[128], deferred[24] = "-";

	shell_key_name(info->key, name, sizeof(name), &modname, &type);
	if (timeout)
		scnprintf(deferred, sizeof(deferred), "%lu jiffies", timeout);
	shell_printf("%-34s %-12s %-10s %5d %-8s %5u/%-5u %s\n", name,
		     *modname ? modname : "-", type, info->count,
		     info->enabled ? "enabled" : "disabled", info->short_sites,
		     info->sites - info->short_sites, deferred);
}

struct key_show {
	const char *glob;
	unsigned int shown, total;
};

static int key_show_one(const struct static_key_info *info, void *data)
{
	struct key_show *ks = data;
	const char *modname;
	char name[128];

	ks->total++;
	key_name(info->key, name, sizeof(name), &modname);
	if (glob_match(ks->glob, name)) {
		key_print(info);
		ks->shown++;
	}
	return 0;
}

static int cmd_keys(int argc, char **argv)
{
	struct key_show ks = { .glob = argc > 1 ? argv[1] : "*" };
	int ret;

	if (!IS_ENABLED(CONFIG_JUMP_LABEL))
		shell_printf("keys: no jump table (CONFIG_JUMP_LABEL=n)\n");
	shell_printf("%-34s %-12s %-10s %5s %-8s %11s %s\n", "KEY", "MODULE",
		     "TYPE", "COUNT", "STATE", "SITES(S/L)", "DEFERRED");
	ret = key_walk_error(static_key_for_each_key(key_show_one, &ks));
	if (ret < 0)
		return ret;
	shell_printf("%u of %u keys\n", ks.shown, ks.total);
	return 0;
}

static int print_site(const struct static_key_site *site, void *data)
{
	unsigned int i;
	u8 bytes[8];
	char hex[32] = "";

	if (site->size > sizeof(bytes) ||
	    copy_from_kernel_nofault(bytes, (void *)site->addr, site->size))
		strscpy(hex, "(unreadable)", sizeof(hex));
	else
		for (i = 0; i < site->size; i++)
			scnprintf(hex + 3 * i, sizeof(hex) - 3 * i, "%02x ",
				  bytes[i]);
	shell_printf("  %016lx %-40pS %s-> %016lx%s\n", site->addr,
		     (void *)site->addr, hex, site->target,
		     site->likely ? " (likely)" : "");
	(*(unsigned int *)data)++;
	return 0;
}

static int cmd_sites(int argc, char **argv)
{
	struct static_key *key;
	struct module *mod;
	unsigned int nr = 0;

	key = key_get(argv[1], argv[0], &mod);
	if (IS_ERR(key))
		return PTR_ERR(key);
	static_key_for_each_key_site(key, print_site, &nr);
	key_put(mod);
	shell_printf("%u sites (bytes now at each, then the jump target)\n",
		     nr);
	return 0;
}

/*
 * The references the console took (enable of a key at 0, inc): the only
 * ones dec and disable may drop. A key's other references are its users'
 * (a tracepoint's probes, a deferred key's owner): taking one away would
 * turn their sites off under them. A default-true key's 1 is its
 * initializer's, no user's: disable may drop it.
 */
#define CONSOLE_KEY_REFS 32
#define CONSOLE_KEY_NAME 64
static struct console_key_ref {
	struct static_key *key;
	unsigned int refs;
	/* The key's module (or NULL) and the key as the console named it. */
	struct module *mod;
	char name[CONSOLE_KEY_NAME];
} console_key_refs[CONSOLE_KEY_REFS];

/*
 * Serializes the table between the console's key commands (held across
 * each, flips included) and the module-going hook, which empties the
 * slots of a module's keys before its memory is freed: the console never
 * touches a freed key, and a key later at the same address is not taken
 * for one the console holds.
 */
static DEFINE_MUTEX(console_key_refs_mutex);

static void console_refs_going(struct module *mod)
{
	unsigned int i;

	mutex_lock(&console_key_refs_mutex);
	for (i = 0; i < CONSOLE_KEY_REFS; i++) {
		struct console_key_ref *ref = &console_key_refs[i];

		if (!ref->refs || ref->mod != mod)
			continue;
		pr_info("key: the console's %u reference%s of %s %s gone with module %s\n",
			ref->refs, ref->refs == 1 ? "" : "s", ref->name,
			ref->refs == 1 ? "is" : "are", mod->name);
		ref->refs = 0;
		ref->key = NULL;
		ref->mod = NULL;
	}
	mutex_unlock(&console_key_refs_mutex);
}

static struct module_going_hook console_refs_hook = {
	.fn = console_refs_going,
};

static int __init console_refs_init(void)
{
	module_going_hook_add(&console_refs_hook);
	return 0;
}
device_initcall(console_refs_init);

/* The key's slot (a free one if add and it has none), or NULL. */
static struct console_key_ref *console_ref(struct static_key *key, bool add)
{
	struct console_key_ref *free = NULL;
	unsigned int i;

	for (i = 0; i < CONSOLE_KEY_REFS; i++) {
		if (console_key_refs[i].refs && console_key_refs[i].key == key)
			return &console_key_refs[i];
		if (!console_key_refs[i].refs && !free)
			free = &console_key_refs[i];
	}
	if (!add || !free)
		return NULL;
	free->key = key;
	free->mod = NULL;
	free->name[0] = '\0';
	return free;
}

/* The key references the console holds, one line each. */
static int cmd_key_refs(void)
{
	unsigned int i, n = 0;

	mutex_lock(&console_key_refs_mutex);
	for (i = 0; i < CONSOLE_KEY_REFS; i++) {
		if (!console_key_refs[i].refs)
			continue;
		shell_printf("  %-40s %u\n", console_key_refs[i].name,
			     console_key_refs[i].refs);
		n++;
	}
	mutex_unlock(&console_key_refs_mutex);
	shell_printf("the console holds references of %u keys (of %d)\n", n,
		     CONSOLE_KEY_REFS);
	return 0;
}

/* May the console drop a reference of key (count > 0)? Says why not. */
static bool console_may_drop(struct static_key *key, const char *name,
			     const char *op, int count)
{
	if (console_ref(key, false))
		return true;
	if (!strcmp(op, "disable") && (key->type & JUMP_TYPE_TRUE) &&
	    !READ_ONCE(key->by_inc))
		return true;
	shell_printf(
		"key: %s: its count of %d is its users', not the console's: no %s\n",
		name, count, op);
	return false;
}

/*
 * Applies op (queued: enable and disable into the next
 * static_key_apply_queued()); false (after saying why) if the count does
 * not allow it.
 */
static bool key_apply(struct static_key *key, struct module *mod,
		      const char *name, const char *op, bool queued)
{
	int count = static_key_count(key);
	struct console_key_ref *ref;

	if ((!strcmp(op, "enable") || !strcmp(op, "disable")) &&
	    (count < 0 || count > 1)) {
		shell_printf(
			"key: %s: count is %d, enable/disable need 0 or 1; use inc/dec\n",
			name, count);
		return false;
	}
	if (!strcmp(op, "dec") && count <= 0) {
		shell_printf("key: %s: count is %d, nothing to dec\n", name,
			     count);
		return false;
	}
	if ((!strcmp(op, "dec") || !strcmp(op, "disable")) && count > 0 &&
	    !console_may_drop(key, name, op, count))
		return false;
	ref = console_ref(key, !strcmp(op, "inc") ||
				       (!strcmp(op, "enable") && !count));
	if (!ref && (!strcmp(op, "inc") || (!strcmp(op, "enable") && !count))) {
		shell_printf("key: %s: the console holds %d keys already\n",
			     name, CONSOLE_KEY_REFS);
		return false;
	}
	if (ref && !ref->refs) {
		ref->mod = mod;
		strscpy(ref->name, name, sizeof(ref->name));
	}
	if (!strcmp(op, "enable")) {
		if (queued)
			static_key_enable_queued(key);
		else
			static_key_enable(key);
		if (!count)
			ref->refs = 1;
	} else if (!strcmp(op, "disable")) {
		if (queued)
			static_key_disable_queued(key);
		else
			static_key_disable(key);
		if (ref)
			ref->refs = 0;
	} else if (!strcmp(op, "inc")) {
		static_key_slow_inc(key);
		ref->refs++;
	} else {
		static_key_slow_dec(key);
		if (ref)
			ref->refs--;
	}
	return true;
}

#define KEY_MANY 16

/*
 * key a b c enable|disable: every key in one batch (static_key_apply_queued()),
 * or none of them (a key whose count refuses, a site with unexpected
 * bytes): the console's references are then as they were.
 */
static int cmd_key_many(int argc, char **argv, const char *op)
{
	struct console_key_ref saved[CONSOLE_KEY_REFS];
	struct text_poke_stats before = text_poke_get_stats(), now;
	struct static_key *keys[KEY_MANY];
	struct module *mods[KEY_MANY];
	int n = argc - 2, i, got = 0, ret = 0;

	if (strcmp(op, "enable") && strcmp(op, "disable")) {
		shell_printf("key: several keys take enable or disable only\n");
		return -EINVAL;
	}
	for (; got < n; got++) {
		keys[got] = key_get(argv[got + 1], argv[0], &mods[got]);
		if (IS_ERR(keys[got])) {
			ret = PTR_ERR(keys[got]);
			goto out_put;
		}
	}
	mutex_lock(&console_key_refs_mutex);
	memcpy(saved, console_key_refs, sizeof(saved));
	for (i = 0; i < n; i++)
		if (!key_apply(keys[i], mods[i], argv[i + 1], op, true))
			ret = -EINVAL;
	/* One key refused: the queue is dropped, the references restored. */
	if (ret) {
		memcpy(console_key_refs, saved, sizeof(saved));
		shell_printf("key: %d keys: nothing changed\n", n);
		goto out_drop;
	}
	ret = static_key_apply_queued();
	if (ret) {
		memcpy(console_key_refs, saved, sizeof(saved));
		shell_printf("key: %d keys: refused (%d), nothing changed\n", n,
			     ret);
		goto out_unlock;
	}
	now = text_poke_get_stats();
	shell_printf("%d keys %sd, %lu sites patched in %lu batches, %lu sync rounds\n",
		     n, op, now.sites - before.sites, now.batches - before.batches,
		     now.sync_rounds - before.sync_rounds);
	goto out_unlock;
out_drop:
	static_key_drop_queued();
out_unlock:
	mutex_unlock(&console_key_refs_mutex);
out_put:
	while (--got >= 0)
		key_put(mods[got]);
	return ret;
}

/*
 * The flip runs without module_mutex (it takes the hotplug lock and
 * jump_label_mutex itself); a reference keeps a module's key alive.
 */
static int cmd_key(int argc, char **argv)
{
	const char *ops[] = { "enable", "disable", "inc", "dec" },
		   *op = argv[argc - 1];
	struct text_poke_stats before = text_poke_get_stats(), now;
	struct static_key *key;
	struct module *mod;
	unsigned int i;
	bool applied;

	if (argc == 2 && !strcmp(argv[1], "refs"))
		return cmd_key_refs();
	for (i = 0; i < ARRAY_SIZE(ops) && strcmp(op, ops[i]); i++)
		;
	if (i == ARRAY_SIZE(ops))
		return shell_usage(argv[0]);
	if (argc > 3)
		return cmd_key_many(argc, argv, op);
	key = key_get(argv[1], argv[0], &mod);
	if (IS_ERR(key))
		return PTR_ERR(key);
	mutex_lock(&console_key_refs_mutex);
	applied = key_apply(key, mod, argv[1], op, false);
	mutex_unlock(&console_key_refs_mutex);
	if (applied) {
		now = text_poke_get_stats();
		shell_printf(
			"%s: %s, count %d, %lu sites patched in %lu batches, %lu sync rounds\n",
			argv[1],
			static_key_enabled(key) ? "enabled" : "disabled",
			static_key_count(key), now.sites - before.sites,
			now.batches - before.batches,
			now.sync_rounds - before.sync_rounds);
	}
	key_put(mod);
	return 0;
}

static int cmd_stats(int argc, char **argv)
{
	struct text_poke_stats s = text_poke_get_stats();

	shell_printf(
		"text_poke: %lu batches, %lu sites, %lu passes, %lu sync rounds, %lu early flushes, %lu int3 hits\n",
		s.batches, s.sites, s.passes, s.sync_rounds, s.early_flushes,
		text_poke_int3_hits());
	return 0;
}

static int key_complete_one(const struct static_key_info *info, void *data)
{
	const char *modname;
	char name[128];

	key_name(info->key, name, sizeof(name), &modname);
	shell_complete_add(data, name);
	return 0;
}

void shell_complete_keys(struct shell_completion *c)
{
	static_key_for_each_key(key_complete_one, c);
}

static void complete_key_op(struct shell_completion *c)
{
	if (c->argi == 1) {
		shell_complete_keys(c);
		return;
	}
	shell_complete_add(c, "enable");
	shell_complete_add(c, "disable");
	shell_complete_add(c, "inc");
	shell_complete_add(c, "dec");
}

static void complete_first_key(struct shell_completion *c)
{
	if (c->argi == 1)
		shell_complete_keys(c);
}

const struct shell_cmd shell_key_cmds[] = {
	{ "keys", "[glob]",
	  "static keys with sites: type, count, state, sites, deferred timeout",
	  0, 1, false, cmd_keys, complete_first_key },
	{ "key", "<name> enable|disable|inc|dec",
	  "change a key (key a b c enable|disable: one batch); prints what was patched; key refs: the console's references", 1,
	  KEY_MANY + 1, true, cmd_key,
	  complete_key_op },
	{ "sites", "<key>",
	  "a key's sites: address, symbol+offset, current bytes", 1, 1, false,
	  cmd_sites, complete_first_key },
	{ "stats", "",
	  "text_poke counters: batches, sites, sync rounds, int3 hits", 0, 0,
	  false, cmd_stats },
	{ NULL }
};
