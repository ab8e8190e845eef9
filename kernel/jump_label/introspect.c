// SPDX-License-Identifier: GPL-2.0
/*
 * The read-only view of the static keys (<linux/jump_label_introspect.h>)
 * and the walk of a key's entries for the tables' own tests
 * (static_key_for_each_site(), <linux/jump_label_table.h>).
 *
 * There is no registry of keys: those with sites are found through the
 * jump tables, the kernel's and each loaded module's (each sorted by key),
 * under module_mutex so that no module goes away meanwhile, and
 * jump_label_mutex so that no key changes its links.
 */
#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/jump_label_introspect.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include "internal.h"

/* The key's state, no sites counted yet. */
static void key_info_state(struct static_key *key, struct static_key_info *info)
{
	info->key = key;
	info->count = static_key_count(key);
	info->enabled = info->count > 0;
	info->default_true = key->type & JUMP_TYPE_TRUE;
	info->sites = 0;
	info->short_sites = 0;
}

#ifdef CONFIG_JUMP_LABEL

int static_key_for_each_site(struct static_key *key,
			     int (*fn)(struct jump_entry *entry,
				       struct module *mod, void *data),
			     void *data)
{
	int ret;

	jump_label_lock();
	ret = __static_key_for_each_site(key, fn, data);
	jump_label_unlock();
	return ret;
}

static int count_site(struct jump_entry *entry, struct module *mod, void *data)
{
	struct static_key_info *info = data;

	info->sites++;
	info->short_sites += arch_jump_entry_is_short(entry);
	return 0;
}

/* jump_label_mutex held. */
static void __static_key_get_info(struct static_key *key,
				  struct static_key_info *info)
{
	key_info_state(key, info);
	__static_key_for_each_site(key, count_site, info);
}

void static_key_get_info(struct static_key *key, struct static_key_info *info)
{
	jump_label_lock();
	__static_key_get_info(key, info);
	jump_label_unlock();
}

struct site_walk {
	int (*fn)(const struct static_key_site *site, void *data);
	void *data;
};

static int report_site(struct jump_entry *entry, struct module *mod, void *data)
{
	struct site_walk *w = data;
	struct static_key_site site = {
		.addr = jump_entry_code(entry),
		.target = jump_entry_target(entry),
		.size = arch_jump_entry_size(entry),
		.likely = jump_entry_is_branch(entry),
		.mod = mod,
	};

	return w->fn(&site, w->data);
}

int static_key_for_each_key_site(struct static_key *key,
				 int (*fn)(const struct static_key_site *site,
					   void *data),
				 void *data)
{
	struct site_walk w = { fn, data };

	return static_key_for_each_site(key, report_site, &w);
}

/* Appends the keys of the sorted table [start, stop) to keys[nr...]. */
static unsigned int table_keys(struct static_key **keys, unsigned int nr,
			       struct jump_entry *start,
			       struct jump_entry *stop)
{
	struct jump_entry *first, *next;

	for_each_jump_key(first, next, start, stop)
		keys[nr++] = jump_entry_key(first);
	return nr;
}

static int key_cmp(const void *a, const void *b)
{
	unsigned long x = (unsigned long)*(struct static_key *const *)a;
	unsigned long y = (unsigned long)*(struct static_key *const *)b;

	return x < y ? -1 : x > y;
}

/*
 * A key with sites in several tables (the kernel's and modules') is
 * reported once: the keys of every table, sorted, without repeats.
 */
static int __static_key_for_each_key(
	struct static_key **keys, unsigned int nr,
	int (*fn)(const struct static_key_info *info, void *data), void *data)
{
	struct static_key_info info;
	unsigned int i;
	int ret = 0;

	sort(keys, nr, sizeof(*keys), key_cmp, NULL);
	jump_label_lock();
	for (i = 0; i < nr && !ret; i++) {
		if (i && keys[i] == keys[i - 1])
			continue;
		__static_key_get_info(keys[i], &info);
		if (info.sites)
			ret = fn(&info, data);
	}
	jump_label_unlock();
	return ret;
}

int static_key_for_each_key(int (*fn)(const struct static_key_info *info,
				      void *data),
			    void *data)
{
	unsigned int n = __stop___jump_table - __start___jump_table, nr;
	struct static_key **keys;
	struct module *mod;
	int ret;

	mutex_lock(&module_mutex);
	list_for_each_entry(mod, &modules, list)
		n += mod->num_jump_entries;
	keys = kcalloc(n + 1, sizeof(*keys), GFP_KERNEL);
	if (!keys) {
		ret = -ENOMEM;
		goto out_unlock;
	}
	nr = table_keys(keys, 0, __start___jump_table, __stop___jump_table);
	list_for_each_entry(mod, &modules, list)
		nr = table_keys(keys, nr, mod->jump_entries,
				mod->jump_entries + mod->num_jump_entries);
	ret = __static_key_for_each_key(keys, nr, fn, data);
	kfree(keys);
out_unlock:
	mutex_unlock(&module_mutex);
	return ret;
}

#else /* !CONFIG_JUMP_LABEL: no table, so no key has a site */

int static_key_for_each_key(int (*fn)(const struct static_key_info *info,
				      void *data),
			    void *data)
{
	return 0;
}

void static_key_get_info(struct static_key *key, struct static_key_info *info)
{
	key_info_state(key, info);
}

int static_key_for_each_key_site(struct static_key *key,
				 int (*fn)(const struct static_key_site *site,
					   void *data),
				 void *data)
{
	return 0;
}

#endif /* CONFIG_JUMP_LABEL */
