// SPDX-License-Identifier: GPL-2.0
/*
 * A module's parameters: its __param section (module_param() and friends,
 * include/linux/moduleparam.h), set from the arguments it is loaded with
 * ("x=5 s=\"two words\"") before its init runs, and shown by the console's
 * modinfo through each parameter's getter.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleloader.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <asm/page.h>
#include "internal.h"

/* Step 6: its __param entries, each its own (kp->mod) with a type (ops). */
int module_find_params(struct load_info *info, struct module *mod)
{
	unsigned int i = module_find_section(info, "__param"), n;
	u64 size = i ? info->sechdrs[i].sh_size : 0;
	const struct kernel_param *kp;

	if (!i)
		return 0;
	if (size % sizeof(*kp)) {
		module_elf_err(
			info,
			"__param of 0x%llx bytes is not a whole number of parameters (%zu bytes)",
			size, sizeof(*kp));
		return -ENOEXEC;
	}
	kp = (void *)(unsigned long)module_section_addr(info, i);
	for (n = 0; n < size / sizeof(*kp); n++) {
		if (kp[n].mod != mod || !kp[n].ops || !kp[n].ops->set ||
		    !kp[n].name) {
			module_elf_err(
				info,
				"__param entry %u is not a module_param() of this module",
				n);
			return -ENOEXEC;
		}
	}
	mod->kp = kp;
	mod->num_kp = n;
	return 0;
}

int module_parse_params(struct module *mod, const char *args)
{
	char doing[MODULE_NAME_LEN + 8];
	size_t len = args ? strlen(args) : 0;
	int ret;

	if (!len)
		return 0;
	mod->args = kmalloc(len + 1, GFP_KERNEL);
	if (!mod->args) {
		pr_err("module %s: out of memory for its arguments\n",
		       mod->name);
		return -ENOMEM;
	}
	memcpy(mod->args, args, len + 1);
	snprintf(doing, sizeof(doing), "module %s", mod->name);
	ret = parse_module_args(doing, mod->args, mod->kp, mod->num_kp);
	if (ret)
		module_free_params(mod);
	return ret;
}

void module_free_params(struct module *mod)
{
	kfree(mod->args);
	mod->args = NULL;
}

int module_params_show(struct module *mod,
		       void (*emit)(const char *name, const char *value,
				    void *data),
		       void *data)
{
	char *buf;
	unsigned int i;
	int len;

	lockdep_assert_held(&module_mutex);
	buf = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	for (i = 0; i < mod->num_kp; i++) {
		len = mod->kp[i].ops->get ?
			      mod->kp[i].ops->get(buf, &mod->kp[i]) :
			      scnprintf(buf, PAGE_SIZE, "?");
		if (len < 0)
			len = scnprintf(buf, PAGE_SIZE, "(error %d)", len);
		if (len && buf[len - 1] == '\n')
			len--;
		buf[len] = '\0';
		emit(mod->kp[i].name, buf, data);
	}
	kfree(buf);
	return 0;
}

int module_blob_modinfo(const struct module_blob *blob,
			void (*emit)(const char *key, const char *value,
				     void *data),
			void *data)
{
	struct load_info info = {
		.name = blob->name,
		.image = blob->data,
		.len = blob->size,
		.this_module_size = sizeof(struct module),
	};
	const Elf64_Shdr *s;
	const char *p, *end, *eq;
	char key[32];
	int ret = module_elf_check(&info);

	if (ret)
		return ret;
	s = &info.sechdrs[info.modinfo_index];
	p = (const char *)info.image + s->sh_offset;
	end = p + s->sh_size;
	for (; p < end; p += strlen(p) + 1) {
		eq = strchr(p, '=');
		if (!*p || !eq)
			continue;
		strscpy(key, p, min_t(size_t, eq - p + 1, sizeof(key)));
		emit(key, eq + 1, data);
	}
	module_elf_release(&info);
	return 0;
}
