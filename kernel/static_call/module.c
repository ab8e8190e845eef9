// SPDX-License-Identifier: GPL-2.0
/*
 * Static call sites of modules. A module is relocatable: its calls of a
 * static call are relocations R_X86_64_PLT32 (or PC32) against the
 * trampoline __SCT__name, each the operand of a call or jmp (the arch
 * says which, arch_static_call_reloc_site()). The loader finds them
 * there, after applying the relocations (so each site calls its
 * trampoline), rather than in a table the build makes: modules built out
 * of tree need no extra build step.
 *
 * A PLT32 relocation against a trampoline (only calls and jumps use it)
 * outside the module's text, or not after a call or jmp, is refused: the
 * site would be patched where no call is. Other relocations against a
 * trampoline (its address taken) are not sites.
 */
#include <linux/kernel.h>
#include <linux/elf.h>
#include <linux/module.h>
#include <linux/moduleloader.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/static_call.h>
#include <linux/static_call_arch.h>
#include <linux/string.h>
#include <linux/text_batch.h>
#include "internal.h"

static bool sc_is_tramp_name(const char *name)
{
	return !strncmp(name, STATIC_CALL_TRAMP_PREFIX_STR,
			STATIC_CALL_TRAMP_PREFIX_LEN);
}

/*
 * Relocation n of section rs, against a trampoline: a site (1), not one
 * (0), or refused (-ENOEXEC).
 */
static int sc_reloc_site(struct load_info *info, unsigned int rs,
			 const Elf64_Rela *r, struct static_call_msite *out)
{
	const Elf64_Shdr *ts = &info->sechdrs[info->sechdrs[rs].sh_info];
	u32 type = ELF64_R_TYPE(r->r_info);
	const char *name, *why = NULL;
	void *site = NULL;
	bool tail = false;
	u8 *field;

	if (type != R_X86_64_PLT32 && type != R_X86_64_PC32)
		return 0;
	name = info->strtab + info->syms[ELF64_R_SYM(r->r_info)].st_name;
	if (!sc_is_tramp_name(name))
		return 0;
	field = (u8 *)(unsigned long)module_section_addr(
			info, info->sechdrs[rs].sh_info) + r->r_offset;
	if (!(ts->sh_flags & SHF_EXECINSTR))
		why = "outside its text";
	else if (!(site = arch_static_call_reloc_site(field, r->r_offset,
						       r->r_addend, &tail)))
		why = "not after a call or jmp";
	if (why && type == R_X86_64_PC32)
		return 0; /* the trampoline's address, taken */
	if (why) {
		pr_err("module %s: static call of %s at %s+0x%llx is %s: refused\n",
		       info->modname, name,
		       module_secname(info, info->sechdrs[rs].sh_info),
		       (unsigned long long)r->r_offset, why);
		return -ENOEXEC;
	}
	if (out) {
		out->addr = site;
		out->tramp = (void *)(unsigned long)
			info->symval[ELF64_R_SYM(r->r_info)];
		out->tail = tail;
		out->init = !strncmp(module_secname(info, ts - info->sechdrs),
				     ".init", 5);
	}
	return 1;
}

/* Counts (out NULL) or records the sites: their number or -ENOEXEC. */
static int sc_scan(struct load_info *info, struct static_call_msite *out)
{
	unsigned int i, n, nr = 0;
	int ret;

	for (i = 1; i < info->nsec; i++) {
		const Elf64_Shdr *rs = &info->sechdrs[i];
		const Elf64_Rela *rel;

		if (rs->sh_type != SHT_RELA || info->sec[rs->sh_info].type < 0)
			continue;
		rel = (const void *)((const u8 *)info->image + rs->sh_offset);
		for (n = 0; n < rs->sh_size / sizeof(*rel); n++) {
			ret = sc_reloc_site(info, i, &rel[n], out ? &out[nr] : NULL);
			if (ret < 0)
				return ret;
			nr += ret;
		}
	}
	return nr;
}

/* Its trampolines' keys: each trampoline in its text, each key in its data. */
static int sc_find_tramp_keys(struct load_info *info, struct module *mod)
{
	unsigned int i = module_find_section(info, ".static_call_tramp_key");
	const struct static_call_tramp_key *tk;
	unsigned long t, k;

	if (!i)
		return 0;
	if (info->sechdrs[i].sh_size % sizeof(*tk)) {
		pr_err("module %s: .static_call_tramp_key is not a whole number of entries: refused\n",
		       info->modname);
		return -ENOEXEC;
	}
	tk = (void *)(unsigned long)module_section_addr(info, i);
	mod->static_call_tramp_keys = tk;
	mod->num_static_call_tramp_keys = info->sechdrs[i].sh_size / sizeof(*tk);
	for (i = 0; i < mod->num_static_call_tramp_keys; i++) {
		t = (unsigned long)&tk[i].tramp + tk[i].tramp;
		k = (unsigned long)&tk[i].key + tk[i].key;
		/* Without CONFIG_STATIC_CALL a key has no trampoline: 0. */
		if ((within_module_mem_type(t, mod, MOD_TEXT) ||
		     (!IS_ENABLED(CONFIG_STATIC_CALL) && !tk[i].tramp)) &&
		    (within_module_mem_type(k, mod, MOD_DATA) ||
		     within_module_mem_type(k, mod, MOD_RO_AFTER_INIT)))
			continue;
		pr_err("module %s: static call trampoline %#lx or key %#lx is not its own: refused\n",
		       info->modname, t, k);
		return -ENOEXEC;
	}
	return 0;
}

int static_call_module_find(struct load_info *info, struct module *mod)
{
	int nr = sc_scan(info, NULL), ret;

	if (nr < 0)
		return nr;
	ret = sc_find_tramp_keys(info, mod);
	if (ret || !nr)
		return ret;
	mod->static_call_sites = kcalloc(nr, sizeof(struct static_call_msite),
					 GFP_KERNEL);
	if (!mod->static_call_sites)
		return -ENOMEM;
	mod->num_static_call_sites = sc_scan(info, mod->static_call_sites);
	return 0;
}

static int sc_msite_cmp(const void *a, const void *b)
{
	const struct static_call_msite *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Each site's key, or -ENOEXEC for a trampoline of no known call. */
static int sc_resolve_keys(struct module *mod)
{
	struct static_call_msite *s = mod->static_call_sites;
	unsigned int i, n = mod->num_static_call_sites;

	for (i = 0; i < n; i++) {
		s[i].key = static_call_tramp_key(s[i].tramp);
		if (!s[i].key) {
			pr_err("module %s: static call site %pS calls %pS, a trampoline of no known call: refused\n",
			       mod->name, s[i].addr, s[i].tramp);
			return -ENOEXEC;
		}
	}
	if (!is_sorted(s, n, sizeof(*s), sc_msite_cmp))
		sort(s, n, sizeof(*s), sc_msite_cmp, NULL);
	return 0;
}

/* Checks every site calls its trampoline and reaches its target. */
static int sc_check_module(struct module *mod)
{
	struct static_call_msite *s = mod->static_call_sites;
	unsigned int i;
	int ret;

	for (i = 0; i < mod->num_static_call_sites; i++) {
		ret = arch_static_call_check_site(s[i].addr, s[i].tramp,
						  s[i].tail, s[i].key->name);
		if (ret)
			return ret;
		if (!arch_static_call_reaches(s[i].addr, s[i].key->func))
			return -ERANGE;
	}
	return 0;
}

static void sc_unlink_mod(struct module *mod)
{
	struct static_call_msite *s = mod->static_call_sites;
	struct static_call_mod **pp, *m;
	unsigned int i;

	for (i = 0; i < mod->num_static_call_sites; i++) {
		if (i && s[i].key == s[i - 1].key)
			continue;
		for (pp = &s[i].key->mods; (m = *pp); pp = &m->next) {
			if (m->mod == mod) {
				*pp = m->next;
				kfree(m);
				break;
			}
		}
	}
}

/* A node per key on the key's list; all or none. */
static int sc_link_mod(struct module *mod)
{
	struct static_call_msite *s = mod->static_call_sites;
	unsigned int i, j;
	struct static_call_mod *m;

	for (i = 0; i < mod->num_static_call_sites; i = j) {
		for (j = i; j < mod->num_static_call_sites && s[j].key == s[i].key;
		     j++)
			;
		m = kzalloc(sizeof(*m), GFP_KERNEL);
		if (!m) {
			mod->num_static_call_sites = i; /* unlink what is linked */
			sc_unlink_mod(mod);
			return -ENOMEM;
		}
		m->mod = mod;
		m->sites = &s[i];
		m->nr = j - i;
		m->next = s[i].key->mods;
		s[i].key->mods = m;
	}
	return 0;
}

/* Its own calls' first targets, for the console. */
static void sc_note_own_keys(struct module *mod)
{
	const struct static_call_tramp_key *tk = mod->static_call_tramp_keys;
	unsigned int i;

	for (i = 0; i < mod->num_static_call_tramp_keys; i++)
		__static_call_note_key(
			(void *)((unsigned long)&tk[i].key + tk[i].key));
}

int __static_call_module_add(struct module *mod)
{
	int ret;

	lockdep_assert_held(&static_call_mutex);
	sc_note_own_keys(mod);
	if (!mod->num_static_call_sites)
		return 0;
	ret = sc_resolve_keys(mod);
	if (!ret)
		ret = sc_check_module(mod);
	if (!ret) {
		ret = sc_link_mod(mod);
		if (ret)
			pr_err("module %s: static_call: out of memory linking its calls\n",
			       mod->name);
	}
	if (ret) {
		mod->num_static_call_sites = 0;
		static_call_module_free(mod);
	}
	return ret;
}

void __static_call_module_queue(struct text_batch *b, struct module *mod)
{
	struct static_call_msite *s = mod->static_call_sites;
	unsigned int i;

	if (unlikely(!text_batch_may_queue(b))) {
		text_batch_refuse(b, TEXT_BATCH_OP_QUEUE);
		return;
	}
	for (i = 0; i < mod->num_static_call_sites; i++)
		__text_batch_queue_call(s[i].addr, s[i].key->func, s[i].tail);
}

void __static_call_module_unlink(struct module *mod)
{
	lockdep_assert_held(&static_call_mutex);
	if (!mod->static_call_sites)
		return;
	sc_unlink_mod(mod);
	static_call_module_free(mod);
}

void static_call_module_init_done(struct module *mod)
{
	struct static_call_msite *s = mod->static_call_sites;
	struct static_call_mod *m;
	unsigned int i, j, k;

	mutex_lock(&static_call_mutex);
	for (i = 0; i < mod->num_static_call_sites; i = j) {
		for (j = i; j < mod->num_static_call_sites && s[j].key == s[i].key;
		     j++)
			;
		for (m = s[i].key->mods; m && m->mod != mod; m = m->next)
			;
		if (!m)
			continue;
		for (k = 0, m->nr = 0; k < j - i; k++)
			if (!m->sites[k].init)
				m->sites[m->nr++] = m->sites[k];
	}
	mutex_unlock(&static_call_mutex);
}

/* What the record knows of mod's memory (its keys, its functions) goes. */
static void sc_forget_mod(struct module *mod)
{
	int t;

	for (t = 0; t < MOD_MEM_NUM_TYPES; t++)
		if (mod->mem[t].base)
			__static_call_forget((unsigned long)mod->mem[t].base,
					     mod->mem[t].size);
}

void static_call_module_del(struct module *mod)
{
	mutex_lock(&static_call_mutex);
	sc_forget_mod(mod);
	mutex_unlock(&static_call_mutex);
	if (!mod->static_call_sites)
		return;
	mutex_lock(&static_call_mutex);
	__static_call_module_unlink(mod);
	mutex_unlock(&static_call_mutex);
}

void static_call_module_free(struct module *mod)
{
	kfree(mod->static_call_sites);
	mod->static_call_sites = NULL;
	mod->num_static_call_sites = 0;
}
