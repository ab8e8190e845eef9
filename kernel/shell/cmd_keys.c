// SPDX-License-Identifier: GPL-2.0
/*
 * Console commands on static keys: keys, key, sites, stats.
 *
 * There is no registry of keys: those with sites are found through the
 * jump tables, the kernel's (sorted by key) and each module's, walked
 * under module_mutex so that no module goes away meanwhile. Keys without
 * a site are invisible (help says so). Names come from kallsyms.
 */
#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/jump_label.h>
#include <linux/jump_label_arch.h>
#include <linux/jump_label_ratelimit.h>
#include <linux/jump_label_table.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/shell.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <asm/text-patching-stats.h>

struct site_count {
	unsigned int nr, shrt;
};

struct key_list {
	struct static_key **keys;
	unsigned int nr;
};

#ifdef CONFIG_JUMP_LABEL
static void key_list_add_table(struct key_list *kl, struct jump_entry *start,
			       struct jump_entry *stop)
{
	struct jump_entry *e;

	for (e = start; e < stop; e++)
		if (!kl->nr || kl->keys[kl->nr - 1] != jump_entry_key(e))
			kl->keys[kl->nr++] = jump_entry_key(e);
}

static unsigned int jump_entries_total(void)
{
	unsigned int n = __stop___jump_table - __start___jump_table;
	struct module *mod;

	list_for_each_entry(mod, &modules, list)
		n += mod->num_jump_entries;
	return n;
}

static int live_site(struct jump_entry *entry, struct module *mod, void *data)
{
	return 1;
}

/* Sites in freed init text are gone: a key left with those only is not. */
static bool key_has_sites(struct static_key *key)
{
	return static_key_for_each_site(key, live_site, NULL);
}

static int key_cmp(const void *a, const void *b)
{
	unsigned long x = (unsigned long)*(struct static_key *const *)a;
	unsigned long y = (unsigned long)*(struct static_key *const *)b;

	return x < y ? -1 : x > y;
}

/* Every key with a site, sorted by address; module_mutex held. */
static int key_list_collect(struct key_list *kl)
{
	struct module *mod;
	unsigned int i, n = 0;

	kl->nr = 0;
	kl->keys = kcalloc(jump_entries_total() + 1, sizeof(*kl->keys),
			   GFP_KERNEL);
	if (!kl->keys)
		return -ENOMEM;
	key_list_add_table(kl, __start___jump_table, __stop___jump_table);
	list_for_each_entry(mod, &modules, list)
		key_list_add_table(kl, mod->jump_entries,
				   mod->jump_entries + mod->num_jump_entries);
	sort(kl->keys, kl->nr, sizeof(*kl->keys), key_cmp, NULL);
	for (i = 0; i < kl->nr; i++)
		if ((!n || kl->keys[n - 1] != kl->keys[i]) &&
		    key_has_sites(kl->keys[i]))
			kl->keys[n++] = kl->keys[i];
	kl->nr = n;
	return 0;
}

static int count_site(struct jump_entry *entry, struct module *mod, void *data)
{
	struct site_count *sc = data;

	sc->nr++;
	sc->shrt += arch_jump_entry_size(entry) == 2;
	return 0;
}

static int print_site(struct jump_entry *entry, struct module *mod, void *data)
{
	unsigned long code = jump_entry_code(entry);
	int i, size = arch_jump_entry_size(entry);
	u8 bytes[8];
	char hex[32] = "";

	if (copy_from_kernel_nofault(bytes, (void *)code, size))
		strscpy(hex, "(unreadable)", sizeof(hex));
	else
		for (i = 0; i < size; i++)
			scnprintf(hex + 3 * i, sizeof(hex) - 3 * i, "%02x ",
				  bytes[i]);
	shell_printf("  %016lx %-40pS %s-> %016lx%s\n", code, (void *)code, hex,
		     jump_entry_target(entry),
		     jump_entry_is_branch(entry) ? " (likely)" : "");
	(*(unsigned int *)data)++;
	return 0;
}

static void key_count_sites(struct static_key *key, struct site_count *sc)
{
	static_key_for_each_site(key, count_site, sc);
}

static void key_print_sites(struct static_key *key, unsigned int *nr)
{
	static_key_for_each_site(key, print_site, nr);
}
#else
static int key_list_collect(struct key_list *kl)
{
	kl->keys = NULL;
	kl->nr = 0;
	return 0;
}

static void key_count_sites(struct static_key *key, struct site_count *sc)
{
}

static void key_print_sites(struct static_key *key, unsigned int *nr)
{
}
#endif

/* The key's name (kernel/shell/key_name.c) and its module's. */
static void key_name(struct static_key *key, char *buf, size_t size,
		     const char **modname)
{
	const char *type;

	shell_key_name(key, buf, size, modname, &type);
}

/* Locks module_mutex and collects; the caller calls key_list_done(). */
static int key_list_start(struct key_list *kl)
{
	int ret;

	mutex_lock(&module_mutex);
	ret = key_list_collect(kl);
	if (ret) {
		mutex_unlock(&module_mutex);
		shell_printf("error: out of memory (%d)\n", ret);
	}
	return ret;
}

static void key_list_done(struct key_list *kl)
{
	kfree(kl->keys);
	mutex_unlock(&module_mutex);
}

static struct static_key *key_list_find(struct key_list *kl, const char *name)
{
	const char *modname;
	char buf[128];
	unsigned int i;

	const char *colon = strchr(name, ':');

	/* "name", or "module:name" for a module's key. */
	for (i = 0; i < kl->nr; i++) {
		key_name(kl->keys[i], buf, sizeof(buf), &modname);
		if (!colon ? !strcmp(buf, name) :
			     !strcmp(buf, colon + 1) &&
				     strlen(modname) == colon - name &&
				     !strncmp(modname, name, colon - name))
			return kl->keys[i];
	}
	return NULL;
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

static void key_print(struct static_key *key)
{
	struct site_count sc = { 0, 0 };
	unsigned long timeout = key_deferred_timeout(key);
	const char *modname, *type;
	char name[128], deferred[24] = "-";

	shell_key_name(key, name, sizeof(name), &modname, &type);
	key_count_sites(key, &sc);
	if (timeout)
		scnprintf(deferred, sizeof(deferred), "%lu jiffies", timeout);
	shell_printf("%-34s %-12s %-10s %5d %-8s %5u/%-5u %s\n", name,
		     *modname ? modname : "-", type,
		     static_key_count(key),
		     static_key_enabled(key) ? "enabled" : "disabled", sc.shrt,
		     sc.nr - sc.shrt, deferred);
}

static int cmd_keys(int argc, char **argv)
{
	const char *glob = argc > 1 ? argv[1] : "*", *modname;
	struct key_list kl;
	unsigned int i, shown = 0;
	char name[128];

	if (!IS_ENABLED(CONFIG_JUMP_LABEL))
		shell_printf("keys: no jump table (CONFIG_JUMP_LABEL=n)\n");
	if (key_list_start(&kl))
		return -ENOMEM;
	shell_printf("%-34s %-12s %-10s %5s %-8s %11s %s\n", "KEY", "MODULE",
		     "TYPE", "COUNT", "STATE", "SITES(S/L)", "DEFERRED");
	for (i = 0; i < kl.nr; i++) {
		key_name(kl.keys[i], name, sizeof(name), &modname);
		if (!glob_match(glob, name))
			continue;
		key_print(kl.keys[i]);
		shown++;
	}
	shell_printf("%u of %u keys\n", shown, kl.nr);
	key_list_done(&kl);
	return 0;
}

static int cmd_sites(int argc, char **argv)
{
	struct static_key *key;
	struct key_list kl;
	unsigned int nr = 0;

	if (key_list_start(&kl))
		return -ENOMEM;
	key = key_list_find(&kl, argv[1]);
	if (key)
		key_print_sites(key, &nr);
	key_list_done(&kl);
	if (!key) {
		shell_printf(
			"sites: %s: no such key with sites; 'keys' lists them\n",
			argv[1]);
		return -ENOENT;
	}
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
static struct console_key_ref {
	struct static_key *key;
	unsigned int refs;
} console_key_refs[CONSOLE_KEY_REFS];

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
	return free;
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

/* Applies op; false (after saying why) if the count does not allow it. */
static bool key_apply(struct static_key *key, const char *name, const char *op)
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
	if (!strcmp(op, "enable")) {
		static_key_enable(key);
		if (!count)
			ref->refs = 1;
	} else if (!strcmp(op, "disable")) {
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

/*
 * The flip runs without module_mutex (it takes the hotplug lock and
 * jump_label_mutex itself); a reference keeps a module's key alive.
 */
static int cmd_key(int argc, char **argv)
{
	const char *ops[] = { "enable", "disable", "inc", "dec" },
		   *op = argv[2];
	struct text_poke_stats before = text_poke_stats,
			       *now = &text_poke_stats;
	struct static_key *key;
	struct module *mod = NULL;
	struct key_list kl;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ops) && strcmp(op, ops[i]); i++)
		;
	if (i == ARRAY_SIZE(ops))
		return shell_usage(argv[0]);
	if (key_list_start(&kl))
		return -ENOMEM;
	key = key_list_find(&kl, argv[1]);
	if (key)
		mod = __module_address((unsigned long)key);
	if (mod && !try_module_get(mod))
		key = NULL;
	key_list_done(&kl);
	if (!key) {
		shell_printf(
			"key: %s: no such key with sites; 'keys' lists them\n",
			argv[1]);
		return -ENOENT;
	}
	if (key_apply(key, argv[1], op))
		shell_printf(
			"%s: %s, count %d, %lu sites patched in %lu batches, %lu sync rounds\n",
			argv[1],
			static_key_enabled(key) ? "enabled" : "disabled",
			static_key_count(key), now->sites - before.sites,
			now->batches - before.batches,
			now->sync_rounds - before.sync_rounds);
	if (mod)
		module_put(mod);
	return 0;
}

static int cmd_stats(int argc, char **argv)
{
	const struct text_poke_stats *s = &text_poke_stats;

	shell_printf(
		"text_poke: %lu batches, %lu sites, %lu passes, %lu sync rounds, %lu early flushes, %lu int3 hits\n",
		s->batches, s->sites, s->passes, s->sync_rounds,
		s->early_flushes, text_poke_int3_hits());
	return 0;
}

void shell_complete_keys(struct shell_completion *c)
{
	const char *modname;
	struct key_list kl;
	char name[128];
	unsigned int i;

	if (key_list_start(&kl))
		return;
	for (i = 0; i < kl.nr; i++) {
		key_name(kl.keys[i], name, sizeof(name), &modname);
		shell_complete_add(c, name);
	}
	key_list_done(&kl);
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
	  "change a key; prints what was patched", 2, 2, true, cmd_key,
	  complete_key_op },
	{ "sites", "<key>",
	  "a key's sites: address, symbol+offset, current bytes", 1, 1, false,
	  cmd_sites, complete_first_key },
	{ "stats", "",
	  "text_poke counters: batches, sites, sync rounds, int3 hits", 0, 0,
	  false, cmd_stats },
	{ NULL }
};
