// SPDX-License-Identifier: GPL-2.0
/*
 * TEMPORARY, for the modload branch alone: the loader calls the jump-label
 * hooks of <linux/module.h>, which the lead writes in kernel/jump_label.c.
 * Until that lands these weak no-ops stand in; the lead deletes this file
 * (and its line in kernel/module/Makefile) at the merge.
 */
#include <linux/compiler.h>
#include <linux/module.h>

int __weak jump_label_module_add(struct module *mod)
{
	return 0;
}

void __weak jump_label_module_init_done(struct module *mod)
{
}

void __weak jump_label_module_del(struct module *mod)
{
}
