// SPDX-License-Identifier: GPL-2.0
/*
 * Hooks run for each module that goes (<linux/module.h>): after its exit,
 * or after its init failed, before its memory is freed. Code that keeps
 * pointers into modules (the console's key references) drops them here.
 */
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>

static LIST_HEAD(module_going_hooks);
static DEFINE_MUTEX(module_going_mutex);

void module_going_hook_add(struct module_going_hook *hook)
{
	mutex_lock(&module_going_mutex);
	list_add_tail(&hook->list, &module_going_hooks);
	mutex_unlock(&module_going_mutex);
}

void module_going_hooks_run(struct module *mod)
{
	struct module_going_hook *hook;

	mutex_lock(&module_going_mutex);
	list_for_each_entry(hook, &module_going_hooks, list)
		hook->fn(mod);
	mutex_unlock(&module_going_mutex);
}
