// SPDX-License-Identifier: GPL-2.0
/*
 * The module loader: turns a blob into a running module and back. The
 * steps (numbered as in Documentation/modules.rst):
 *
 *   1. validate the whole file (elf.c) before anything is allocated;
 *   2. under module_mutex: refuse a name already loaded (-EEXIST);
 *   3. lay the SHF_ALLOC sections out into regions; map each region RW NX
 *      in the module area, zeroed; the struct module lives in MOD_DATA;
 *      .data..percpu gets a chunk of the per-CPU reserve (percpu.c);
 *   4. resolve undefined symbols: __this_module, the kernel's exports,
 *      then the exports of live and coming modules (recording each module
 *      used, which pins it);
 *   5. holding text_mutex (a TEXT_BATCH_NX text batch): copy the
 *      sections, apply the relocations; then every possible CPU's copy of
 *      the per-CPU chunk gets the contents;
 *   6. keep the symbol table for %pS; find the exports, the jump table,
 *      the tracepoint and trace event tables, the parameters (params.c),
 *      init and exit; refuse exports the kernel or a module already has;
 *   7. final protections: text RX, rodata R, data RW NX; ro_after_init
 *      stays RW for now (made in step 8, once its sites are set);
 *   8. list it, COMING; every site of its text (jump labels of any key,
 *      static calls) linked and set in one write while the text is still
 *      RW NX (module_set_text_sites(): no int3, no sync round), then the
 *      protections of step 7; its tracepoints (tracepoint_module_coming())
 *      and events (trace_module_add_events()) join the kernel's, so that
 *      init may probe or fire them;
 *   9. without module_mutex: set its parameters from the arguments (a
 *      refusal undoes the load as in 10, without the events); fire
 *      module_load; run init;
 *  10. on failure fire module_free and undo everything (its events, stray
 *      probes in its text, its tracepoints, its jump labels, ...); on
 *      success remove stray probes in its init text,
 *      jump_label_module_init_done(), free the init regions, seal
 *      ro_after_init, LIVE.
 *
 * Unloading runs exit, fires module_free, then under module_mutex undoes
 * step 8 in reverse: the module's events (disabled if enabled), every
 * probe still registered whose function is in its text (WARNed about:
 * the module should have unregistered it in its exit), its tracepoints
 * (any probe left on them WARNed about and removed), its jump labels.
 *
 * Any failure undoes the steps before it (goto ladder), so a refusal
 * leaves frames, kmalloc and the module area as they were.
 *
 * Readers that cannot sleep (%pS, __module_address()) walk the list under
 * rcu_read_lock(); the writer holds module_mutex and waits a grace period
 * before memory a reader could see goes away.
 */
#include <linux/kernel.h>
#include <linux/err.h>
#include <linux/jump_label.h>
#include <linux/module.h>
#include <linux/moduleloader.h>
#include <linux/mutex.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/text_batch.h>
#include <asm/jump_label.h> /* struct jump_entry, also with JUMP_LABEL=n */
#include <asm/module.h>
#include <asm/pgtable.h>
#include <trace/events/module.h>
#include <generated/vermagic.h>
#include "internal.h"

DEFINE_MUTEX(module_mutex);
LIST_HEAD(modules);

/* What one load needs beside the pure part's state. */
struct load_ctx {
	struct load_info info;
	struct module *mod;
};

static const char *info_name(const struct load_info *info)
{
	return info->modname ?: info->name ?: "?";
}

/* One line "module NAME: ..." at error or warning level. */
static void module_elf_vlog(bool err, const struct load_info *info,
			    const char *fmt, va_list args)
{
	char buf[192];

	vscnprintf(buf, sizeof(buf), fmt, args);
	if (err)
		pr_err("module %s: %s\n", info_name(info), buf);
	else
		pr_warn("module %s: %s\n", info_name(info), buf);
}

void module_elf_err(const struct load_info *info, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	module_elf_vlog(true, info, fmt, args);
	va_end(args);
}

void module_elf_warn(const struct load_info *info, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	module_elf_vlog(false, info, fmt, args);
	va_end(args);
}

void *module_elf_alloc(size_t size)
{
	return kzalloc(size ?: 1, GFP_KERNEL);
}

void module_elf_free(void *p)
{
	kfree(p);
}

struct module *find_module(const char *name)
{
	struct module *mod;

	lockdep_assert_held(&module_mutex);
	list_for_each_entry(mod, &modules, list)
		if (!strcmp(mod->name, name))
			return mod;
	return NULL;
}

static const struct kernel_symbol *
find_in_table(const struct kernel_symbol *start, unsigned int n,
	      const char *name)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!strcmp(start[i].name, name))
			return &start[i];
	return NULL;
}

/* The kernel's table is sorted by name (<linux/export.h>): a bisection. */
static const struct kernel_symbol *
find_in_sorted(const struct kernel_symbol *start, unsigned int n,
	       const char *name)
{
	unsigned int lo = 0, hi = n, mid;
	int c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = strcmp(name, start[mid].name);
		if (!c)
			return &start[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

/*
 * The export called name: the kernel's, or that of a live or coming
 * module (*owner, else NULL); *gpl for an EXPORT_SYMBOL_GPL one.
 */
static const struct kernel_symbol *find_symbol(const char *name,
					       struct module **owner, bool *gpl)
{
	const struct kernel_symbol *ks;
	struct module *mod;

	*owner = NULL;
	*gpl = false;
	ks = find_in_sorted(__start___ksymtab,
			    __stop___ksymtab - __start___ksymtab, name);
	if (ks)
		return ks;
	*gpl = true;
	ks = find_in_sorted(__start___ksymtab_gpl,
			    __stop___ksymtab_gpl - __start___ksymtab_gpl, name);
	if (ks)
		return ks;
	list_for_each_entry(mod, &modules, list) {
		if (mod->state != MODULE_STATE_LIVE &&
		    mod->state != MODULE_STATE_COMING)
			continue;
		*owner = mod;
		*gpl = false;
		ks = find_in_table(mod->syms, mod->num_syms, name);
		if (ks)
			return ks;
		*gpl = true;
		ks = find_in_table(mod->gpl_syms, mod->num_gpl_syms, name);
		if (ks)
			return ks;
	}
	*owner = NULL;
	return NULL;
}

/* Records that a uses b, once, and pins b: 0 or -ENOMEM. */
static int ref_module(struct module *a, struct module *b)
{
	struct module_use *use;

	list_for_each_entry(use, &a->target_list, target_list)
		if (use->target == b)
			return 0;
	use = kmalloc(sizeof(*use), GFP_KERNEL);
	if (!use)
		return -ENOMEM;
	use->source = a;
	use->target = b;
	list_add_tail(&use->source_list, &b->source_list);
	list_add_tail(&use->target_list, &a->target_list);
	__module_get(b);
	return 0;
}

/* Drops every use a module made of others, and their pins. */
static void module_unref_all(struct module *mod)
{
	struct module_use *use, *tmp;

	list_for_each_entry_safe(use, tmp, &mod->target_list, target_list) {
		list_del_init(&use->source_list);
		list_del_init(&use->target_list);
		module_put(use->target);
		kfree(use);
	}
}

int module_elf_resolve(struct load_info *info, const char *name, bool weak,
		       u64 *value)
{
	struct module *mod = container_of(info, struct load_ctx, info)->mod;
	const struct kernel_symbol *ks;
	struct module *owner;
	bool gpl;

	if (!strcmp(name, "__this_module")) {
		*value = (unsigned long)mod;
		return 0;
	}
	ks = find_symbol(name, &owner, &gpl);
	if (!ks) {
		*value = 0;
		if (weak)
			return 0;
		pr_err("module %s: unknown symbol %s\n", mod->name, name);
		return -ENOENT;
	}
	if (gpl && !mod->gpl_compatible) {
		pr_err("module %s: GPL-only symbol %s (of %s) used by a module without a GPL-compatible license\n",
		       mod->name, name, owner ? owner->name : "the kernel");
		return -EPERM;
	}
	*value = ks->value;
	return owner ? ref_module(mod, owner) : 0;
}

/* Maps every non-empty region; on failure frees the ones mapped. */
static int alloc_regions(struct load_info *info)
{
	int t;

	for (t = 0; t < MOD_MEM_NUM_TYPES; t++) {
		if (!info->size[t])
			continue;
		info->base[t] = module_alloc(info->size[t]);
		if (!info->base[t])
			goto out_free;
		info->addr[t] = (unsigned long)info->base[t];
	}
	return 0;

out_free:
	pr_err("module %s: out of memory for %u bytes of module memory\n",
	       info->modname, info->size[t]);
	while (--t >= 0)
		module_memfree(info->base[t], info->size[t]);
	return -ENOMEM;
}

static void free_regions(struct module_memory *mem)
{
	int t;

	for (t = 0; t < MOD_MEM_NUM_TYPES; t++)
		module_memfree(mem[t].base, mem[t].size);
}

/* The struct module, in MOD_DATA: everything the lists need from now on. */
static struct module *setup_module(struct load_info *info)
{
	struct module *mod = (void *)(info->base[MOD_DATA] + info->mod_offset);
	int t;

	strscpy(mod->name, info->modname, sizeof(mod->name));
	mod->state = MODULE_STATE_UNFORMED;
	mod->gpl_compatible = info->gpl_compatible;
	atomic_set(&mod->refcnt, 1);
	INIT_LIST_HEAD(&mod->list);
	INIT_LIST_HEAD(&mod->source_list);
	INIT_LIST_HEAD(&mod->target_list);
	for (t = 0; t < MOD_MEM_NUM_TYPES; t++) {
		mod->mem[t].base = info->base[t];
		mod->mem[t].size = info->size[t];
	}
	return mod;
}

/*
 * Copy and relocate: the loader's writes of (future) text, in a text batch
 * holding text_mutex; the text is not executable yet (TEXT_BATCH_NX).
 */
static int write_module(struct load_info *info)
{
	struct text_batch b = {};
	int ret;

	__text_batch_lock(&b, TEXT_BATCH_TEXT | TEXT_BATCH_NX);
	module_copy_sections(info);
	ret = module_apply_relocations(info);
	__text_batch_unlock(&b, TEXT_BATCH_ALL);
	if (!ret)
		module_copy_kallsyms(info);
	return ret;
}

static int find_exports(struct load_info *info, struct module *mod)
{
	unsigned int i = module_find_section(info, "__kcrctab");
	int n = 0;

	if (i) {
		n = module_check_crcs(info, i);
		if (n < 0)
			return n;
		mod->crcs = (void *)(unsigned long)module_section_addr(info, i);
		mod->num_crcs = n;
	}
	i = module_find_section(info, "__ksymtab");

	if (i) {
		n = module_check_exports(info, i);
		if (n < 0)
			return n;
		mod->syms = (void *)(unsigned long)module_section_addr(info, i);
		mod->num_syms = n;
	}
	i = module_find_section(info, "__ksymtab_gpl");
	if (i) {
		n = module_check_exports(info, i);
		if (n < 0)
			return n;
		mod->gpl_syms =
			(void *)(unsigned long)module_section_addr(info, i);
		mod->num_gpl_syms = n;
	}
	return 0;
}

/* A region the module may keep keys in: written by linking them. */
static bool within_module_key_data(unsigned long addr, unsigned long len,
				   struct module *mod)
{
	return (within_module_mem_type(addr, mod, MOD_DATA) &&
		within_module_mem_type(addr + len - 1, mod, MOD_DATA)) ||
	       (within_module_mem_type(addr, mod, MOD_RO_AFTER_INIT) &&
		within_module_mem_type(addr + len - 1, mod, MOD_RO_AFTER_INIT));
}

/*
 * The module's __static_keys (<linux/jump_label.h>): the keys of its own
 * that its jump entries may name, and the deferred ones unload flushes.
 * Each must lie in its writable data, 8-aligned.
 */
static int find_static_keys(struct load_info *info, struct module *mod)
{
	unsigned int i = module_find_section(info, "__static_keys"), n;
	const struct static_key_def *defs;
	unsigned long k, len;

	if (!i)
		return 0;
	if (info->sechdrs[i].sh_size % sizeof(*defs)) {
		module_elf_err(
			info,
			"__static_keys of 0x%lx bytes is not a whole number of entries (%zu bytes)",
			info->sechdrs[i].sh_size, sizeof(*defs));
		return -ENOEXEC;
	}
	defs = (void *)(unsigned long)module_section_addr(info, i);
	n = info->sechdrs[i].sh_size / sizeof(*defs);
	for (i = 0; i < n; i++) {
		k = (unsigned long)defs[i].key;
		len = (unsigned long)defs[i].count * sizeof(struct static_key);
		if (defs[i].count && defs[i].count <= 0x10000 &&
		    !(k % __alignof__(struct static_key)) &&
		    within_module_key_data(k, len, mod))
			continue;
		module_elf_err(
			info,
			"__static_keys entry %u: %u keys at %p are not in the module's data",
			i, defs[i].count, defs[i].key);
		return -ENOEXEC;
	}
	mod->static_keys = defs;
	mod->num_static_keys = n;
	return 0;
}

static int find_module_sections(struct load_info *info, struct module *mod)
{
	unsigned int i = module_find_section(info, "__jump_table");
	u64 size = info->sechdrs[i].sh_size;
	int ret;

	if (i && size % sizeof(struct jump_entry)) {
		module_elf_err(
			info,
			"__jump_table of 0x%llx bytes is not a whole number of entries (%zu bytes)",
			size, sizeof(struct jump_entry));
		return -ENOEXEC;
	}
	if (i) {
		mod->jump_entries =
			(void *)(unsigned long)module_section_addr(info, i);
		mod->num_jump_entries = size / sizeof(struct jump_entry);
	}
	ret = find_static_keys(info, mod);
	if (!ret)
		ret = module_find_tracing(info, mod);
	if (!ret)
		ret = static_call_module_find(info, mod);
	if (ret)
		return ret;
	if (info->init_sym)
		mod->init = (void *)(unsigned long)info->symval[info->init_sym];
	if (info->exit_sym)
		mod->exit = (void *)(unsigned long)info->symval[info->exit_sym];
	mod->symtab = (void *)(info->base[MOD_RODATA] + info->ksym_offset);
	mod->num_symtab = info->nksyms;
	mod->strtab = (void *)(info->base[MOD_RODATA] + info->kstr_offset);
	return find_exports(info, mod);
}

/* The first of mod's exports called name, or NULL. */
static const struct kernel_symbol *find_own(struct module *mod,
					    const char *name)
{
	return find_in_table(mod->syms, mod->num_syms, name) ?:
		       find_in_table(mod->gpl_syms, mod->num_gpl_syms, name);
}

/*
 * Refuses an export the kernel or another module already has, or that
 * this module has twice. mod is not on the list yet, so find_symbol()
 * sees only the others.
 */
static int check_export_dups(struct module *mod,
			     const struct kernel_symbol *syms, unsigned int n)
{
	const struct kernel_symbol *ks;
	struct module *owner;
	unsigned int i;
	bool gpl;

	for (i = 0; i < n; i++) {
		ks = find_symbol(syms[i].name, &owner, &gpl);
		if (!ks && find_own(mod, syms[i].name) != &syms[i]) {
			ks = &syms[i];
			owner = mod;
		}
		if (ks) {
			pr_err("module %s: exports %s, which %s already exports\n",
			       mod->name, syms[i].name,
			       owner ? owner->name : "the kernel");
			return -ENOEXEC;
		}
	}
	return 0;
}

/*
 * Region m gets prot, and so does its frames' alias in the direct map, so
 * that read-only text and data have no writable mapping at all.
 */
static int protect_region(struct module_memory *m, pteval_t prot)
{
	unsigned long va = (unsigned long)m->base;
	unsigned long n = DIV_ROUND_UP(m->size, PAGE_SIZE);
	int ret = set_memory_prot(va, n, prot);

	if (!ret && !(prot & _PAGE_RW))
		ret = set_memory_alias_prot(va, n, PAGE_KERNEL_RO);
	return ret;
}

/* Step 7: final protections but ro_after_init's, which waits for init. */
static int protect_module(struct module *mod)
{
	static const pteval_t prot[MOD_MEM_NUM_TYPES] = {
		[MOD_TEXT] = PAGE_KERNEL_EXEC,
		[MOD_RODATA] = PAGE_KERNEL_RO,
		[MOD_RO_AFTER_INIT] = PAGE_KERNEL,
		[MOD_DATA] = PAGE_KERNEL,
		[MOD_INIT_TEXT] = PAGE_KERNEL_EXEC,
		[MOD_INIT_RODATA] = PAGE_KERNEL_RO,
		[MOD_INIT_DATA] = PAGE_KERNEL,
	};
	int t, ret;

	for (t = 0; t < MOD_MEM_NUM_TYPES; t++) {
		if (!mod->mem[t].base || prot[t] == PAGE_KERNEL)
			continue;
		ret = protect_region(&mod->mem[t], prot[t]);
		if (ret) {
			pr_err("module %s: cannot protect its %s region: %d\n",
			       mod->name,
			       t == MOD_TEXT || t == MOD_INIT_TEXT ? "text" :
								     "rodata",
			       ret);
			return ret;
		}
	}
	return 0;
}

/* Frees all of mod's memory, mod itself included (it lives in MOD_DATA). */
static void free_module_memory(struct module *mod)
{
	struct module_memory mem[MOD_MEM_NUM_TYPES];

	module_percpu_free(mod);
	module_free_params(mod);
	memcpy(mem, mod->mem, sizeof(mem));
	free_regions(mem);
}

/* Steps 3 to 6, under module_mutex: the module, or ERR_PTR after undoing. */
static struct module *layout_and_link(struct load_ctx *ctx)
{
	struct load_info *info = &ctx->info;
	struct module *mod;
	int ret;

	ret = module_layout(info);
	if (!ret)
		ret = alloc_regions(info);
	if (ret)
		return ERR_PTR(ret);
	mod = ctx->mod = setup_module(info);
	ret = module_percpu_alloc(info, mod);
	if (!ret)
		ret = module_resolve_symbols(info);
	if (!ret)
		ret = write_module(info);
	if (!ret)
		module_percpu_populate(mod);
	if (!ret)
		ret = find_module_sections(info, mod);
	if (!ret)
		ret = module_find_params(info, mod);
	if (!ret)
		ret = check_export_dups(mod, mod->syms, mod->num_syms);
	if (!ret)
		ret = check_export_dups(mod, mod->gpl_syms, mod->num_gpl_syms);
	if (ret)
		goto out_free;
	return mod;

out_free:
	static_call_module_free(mod);
	module_unref_all(mod);
	free_module_memory(mod);
	return ERR_PTR(ret);
}

/*
 * Unlinks and frees a module whose init failed, unless something took a
 * reference meanwhile (a module its init loaded uses it): then it stays,
 * GOING, with its memory, since that module's code points into it.
 */
static void release_failed_module(struct module *mod)
{
	int refs = atomic_cmpxchg(&mod->refcnt, 1, 0);

	if (refs != 1) {
		pr_err("module %s: %d references held after its init failed: it stays in memory\n",
		       mod->name, refs - 1);
		return;
	}
	list_del_rcu(&mod->list);
	synchronize_rcu();
	module_unref_all(mod);
	free_module_memory(mod);
}

/* Init regions go once no reader can be in them (__module_address()). */
static void free_init_regions(struct module *mod)
{
	struct module_memory init[MOD_MEM_NUM_TYPES] = {};
	int t;

	for (t = MOD_INIT_TEXT; t <= MOD_INIT_DATA; t++) {
		init[t] = mod->mem[t];
		WRITE_ONCE(mod->mem[t].base, NULL);
		mod->mem[t].size = 0;
	}
	synchronize_rcu();
	free_regions(init);
}

/* Step 10 after a successful init, under module_mutex. */
static void finish_init(struct module *mod)
{
	struct module_memory *ro = &mod->mem[MOD_RO_AFTER_INIT];

	/* Init text is freed below: nothing may call into it any more. */
	module_tracing_init_done(mod);
	jump_label_module_init_done(mod);
	static_call_module_init_done(mod);
	free_init_regions(mod);
	/* Cannot fail short of memory to split the direct map: then warn. */
	if (ro->base)
		WARN_ON(protect_region(ro, PAGE_KERNEL_RO));
	mod->state = MODULE_STATE_LIVE;
}

/*
 * Steps 9 and 10: its arguments set its parameters (a refusal has said
 * why: the load is undone as after a failed init, without the events),
 * then init runs without module_mutex (it may load modules).
 */
static struct module *do_init_module(struct module *mod, const char *args)
{
	int ret = module_parse_params(mod, args);
	bool refused = ret;

	if (!refused) {
		trace_module_load(mod);
		ret = mod->init ? mod->init() : 0;
	}
	if (ret > 0) {
		pr_warn("module %s: init returned %d, not 0 or -errno: taken as 0\n",
			mod->name, ret);
		ret = 0;
	}
	if (ret) {
		jump_label_module_flush(mod);
		if (!refused)
			trace_module_free(mod);
		module_going_hooks_run(mod);
	}
	mutex_lock(&module_mutex);
	if (ret) {
		if (!refused)
			pr_err("module %s: init failed with %d\n", mod->name,
			       ret);
		mod->state = MODULE_STATE_GOING;
		module_tracing_going(mod);
		static_call_module_del(mod);
		jump_label_module_del(mod);
		release_failed_module(mod);
	} else {
		finish_init(mod);
	}
	mutex_unlock(&module_mutex);
	return ret ? ERR_PTR(ret) : mod;
}

/*
 * Step 8: visible to lookups and to find_symbol(), then every site of its
 * text set in one write while the text is still RW NX, then the final
 * protections (step 7, made here so that no CPU can fetch the text before
 * its sites are set), then its tracepoints and events.
 */
static int link_coming(struct module *mod)
{
	int ret;

	mod->state = MODULE_STATE_COMING;
	list_add_tail_rcu(&mod->list, &modules);
	ret = module_set_text_sites(mod);
	if (!ret) {
		ret = protect_module(mod);
		if (ret) {
			static_call_module_del(mod);
			jump_label_module_del(mod);
		}
	}
	if (ret) {
		list_del_rcu(&mod->list);
		synchronize_rcu();
		module_unref_all(mod);
		free_module_memory(mod);
		return ret;
	}
	module_tracing_coming(mod);
	return 0;
}

/*
 * The version magic: .modinfo's vermagic= must be this kernel's, the
 * release and every option that changes what a module sees
 * (scripts/vermagic.py). Before anything is allocated.
 */
static int check_vermagic(const struct load_info *info)
{
	if (!info->vermagic) {
		pr_err("module %s: no version magic (vermagic= in .modinfo) where '%s' is needed, refused (-ENOEXEC)\n",
		       info->modname, VERMAGIC_STRING);
		return -ENOEXEC;
	}
	if (strcmp(info->vermagic, VERMAGIC_STRING)) {
		pr_err("module %s: version magic '%s' should be '%s', refused (-ENOEXEC)\n",
		       info->modname, info->vermagic, VERMAGIC_STRING);
		return -ENOEXEC;
	}
	return 0;
}

/* The CRC the kernel's table gives name (sorted by name): true and *crc. */
static bool kernel_crc(const char *name, u32 *crc)
{
	unsigned int lo = 0, hi = __kernel_num_crcs, mid;
	int c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = strcmp(name, __kernel_crcs[mid].name);
		if (!c) {
			*crc = __kernel_crcs[mid].crc;
			return true;
		}
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return false;
}

/* The CRC of name as its exporter (owner, NULL for the kernel) gives it. */
static bool export_crc(struct module *owner, const char *name, u32 *crc)
{
	unsigned int i;

	if (!owner)
		return kernel_crc(name, crc);
	for (i = 0; i < owner->num_crcs; i++) {
		if (!strcmp(owner->crcs[i].name, name)) {
			*crc = owner->crcs[i].crc;
			return true;
		}
	}
	return false;
}

/*
 * Symbol versions, under module_mutex and before anything is allocated:
 * each symbol the module uses that its exporter versions must be listed
 * in its __versions with the exporter's CRC, the CRC of the types the
 * export names (scripts/symversions.py). An unknown symbol is left to
 * step 4, which names it.
 */
static int check_symbol_versions(const struct load_info *info)
{
	const struct kernel_symbol *ks;
	struct module *owner;
	const char *name;
	unsigned int j;
	u64 have;
	u32 want;
	bool gpl;

	for (j = 1; j < info->nsyms; j++) {
		if (info->syms[j].st_shndx != SHN_UNDEF ||
		    !info->syms[j].st_name)
			continue;
		name = info->strtab + info->syms[j].st_name;
		ks = find_symbol(name, &owner, &gpl);
		if (!ks || !export_crc(owner, name, &want))
			continue;
		if (!module_symbol_version(info, name, &have)) {
			pr_err("module %s: no version for symbol %s (%s versions it: 0x%08x), refused (-ENOEXEC)\n",
			       info->modname, name,
			       owner ? owner->name : "the kernel", want);
			return -ENOEXEC;
		}
		if (have != want) {
			pr_err("module %s: symbol %s has version 0x%08llx, %s's is 0x%08x: the types it names differ, refused (-ENOEXEC)\n",
			       info->modname, name, (unsigned long long)have,
			       owner ? owner->name : "the kernel", want);
			return -ENOEXEC;
		}
	}
	return 0;
}

struct module *load_module_blob_args(const struct module_blob *blob,
				     const char *args)
{
	struct load_ctx ctx = { .info = {
					.name = blob->name,
					.image = blob->data,
					.len = blob->size,
					.this_module_size =
						sizeof(struct module),
				} };
	struct module *mod;
	int ret = module_elf_check(&ctx.info);

	if (!ret)
		ret = check_vermagic(&ctx.info);
	if (ret)
		return ERR_PTR(ret);
	mutex_lock(&module_mutex);
	if (find_module(ctx.info.modname)) {
		pr_err("module %s: already loaded\n", ctx.info.modname);
		mod = ERR_PTR(-EEXIST);
		goto out_unlock;
	}
	ret = check_symbol_versions(&ctx.info);
	if (ret) {
		mod = ERR_PTR(ret);
		goto out_unlock;
	}
	mod = layout_and_link(&ctx);
	if (!IS_ERR(mod)) {
		ret = link_coming(mod);
		if (ret)
			mod = ERR_PTR(ret);
	}
out_unlock:
	mutex_unlock(&module_mutex);
	module_elf_release(&ctx.info);
	return IS_ERR(mod) ? mod : do_init_module(mod, args);
}

struct module *load_module_blob(const struct module_blob *blob)
{
	return load_module_blob_args(blob, NULL);
}

struct module *load_module_args(const char *name, const char *args)
{
	const struct module_blob *blob = module_blob_find(name);

	if (!blob) {
		pr_err("module %s: not found (no blob of that name)\n", name);
		return ERR_PTR(-ENOENT);
	}
	return load_module_blob_args(blob, args);
}

struct module *load_module_name(const char *name)
{
	return load_module_args(name, NULL);
}

int request_module(const char *name)
{
	struct module *mod;
	bool loaded;

	mutex_lock(&module_mutex);
	loaded = find_module(name);
	mutex_unlock(&module_mutex);
	if (loaded)
		return 0;
	mod = load_module(name);
	/* Another task may have loaded it meanwhile: that is success too. */
	return IS_ERR(mod) && PTR_ERR(mod) != -EEXIST ? PTR_ERR(mod) : 0;
}

/* Under module_mutex: 0 once mod is GOING with no reference, or -EBUSY. */
static int try_stop_module(struct module *mod)
{
	struct module_use *use;
	int refs;

	/* Its init may have left work behind that only its exit stops. */
	if (mod->init && !mod->exit) {
		pr_err("module %s has an init but no exit: it cannot be removed\n",
		       mod->name);
		return -EBUSY;
	}
	if (mod->state != MODULE_STATE_LIVE) {
		pr_err("module %s is %s\n", mod->name,
		       mod->state == MODULE_STATE_COMING ? "still in its init" :
							   "already going");
		return -EBUSY;
	}
	if (!list_empty(&mod->source_list)) {
		use = list_first_entry(&mod->source_list, struct module_use,
				       source_list);
		pr_err("module %s is in use by %s\n", mod->name,
		       use->source->name);
		return -EBUSY;
	}
	/* 1 -> 0 at once, so that no try_module_get() slips in after. */
	refs = atomic_cmpxchg(&mod->refcnt, 1, 0);
	if (refs != 1) {
		pr_err("module %s: %d references held\n", mod->name, refs - 1);
		return -EBUSY;
	}
	mod->state = MODULE_STATE_GOING;
	return 0;
}

/*
 * After its exit: what still points into mod, asked of each subsystem
 * that keeps pointers to code or data it does not own: false if nothing
 * does, else true with a phrase naming the first in buf.
 */
static bool module_still_referenced(const struct module *mod, char *buf,
				    size_t len)
{
	return timers_point_into(mod, buf, len) ||
	       work_points_into(mod, buf, len) ||
	       rcu_callbacks_point_into(mod, buf, len) ||
	       kthreads_point_into(mod, buf, len) ||
	       tracepoint_probes_point_into(mod, buf, len);
}

/* Under module_mutex: whether this delete_module() may go on with mod. */
static int claim_module(struct module *mod)
{
	int ret;

	if (mod->unloading) {
		pr_err("module %s is already going\n", mod->name);
		return -EBUSY;
	}
	/* A refused unload left it GOING, its exit done: just look again. */
	ret = mod->exit_done ? 0 : try_stop_module(mod);
	if (!ret)
		mod->unloading = true;
	return ret;
}

int delete_module(const char *name)
{
	char what[160];
	struct module *mod;
	int ret;

	mutex_lock(&module_mutex);
	mod = find_module(name);
	if (!mod) {
		pr_err("module %s: not loaded\n", name);
		ret = -ENOENT;
	} else {
		ret = claim_module(mod);
	}
	mutex_unlock(&module_mutex);
	if (ret)
		return ret;
	if (!mod->exit_done) {
		if (mod->exit)
			mod->exit();
		module_going_hooks_run(mod);
		jump_label_module_flush(mod);
		mod->exit_done = true;
	}
	/*
	 * Its memory may go only once nothing points into it: a timer, work
	 * item, RCU callback, kthread or probe its exit forgot would run freed
	 * code. Then it stays, GOING, and a later rmmod looks again.
	 */
	if (module_still_referenced(mod, what, sizeof(what))) {
		pr_err("module %s: %s still points into it after its exit: it stays in memory until rmmod finds nothing, refused (-EBUSY)\n",
		       mod->name, what);
		mutex_lock(&module_mutex);
		mod->unloading = false;
		mutex_unlock(&module_mutex);
		return -EBUSY;
	}
	trace_module_free(mod);
	mutex_lock(&module_mutex);
	module_tracing_going(mod);
	static_call_module_del(mod);
	jump_label_module_del(mod);
	list_del_rcu(&mod->list);
	synchronize_rcu();
	module_unref_all(mod);
	free_module_memory(mod);
	mutex_unlock(&module_mutex);
	return 0;
}

bool try_module_get(struct module *mod)
{
	int v;

	if (!mod)
		return true;
	v = atomic_read(&mod->refcnt);
	do {
		if (v <= 0 || READ_ONCE(mod->state) == MODULE_STATE_GOING)
			return false;
	} while (!atomic_try_cmpxchg(&mod->refcnt, &v, v + 1));
	return true;
}

void __module_get(struct module *mod)
{
	if (mod)
		atomic_inc(&mod->refcnt);
}

void module_put(struct module *mod)
{
	/* The last reference is the module's own, dropped by delete_module().
	 */
	if (mod)
		WARN_ON_ONCE(atomic_add_return(-1, &mod->refcnt) < 1);
}

unsigned int module_refcount(struct module *mod)
{
	int v = atomic_read(&mod->refcnt);

	return v > 0 ? v - 1 : 0;
}

static struct module *module_at(unsigned long addr, bool text_only)
{
	struct module *mod, *found = NULL;
	int t;

	if (!within_module_area(addr))
		return NULL;
	rcu_read_lock();
	list_for_each_entry_rcu(mod, &modules, list) {
		for (t = 0; t < MOD_MEM_NUM_TYPES && !found; t++) {
			if (text_only && t != MOD_TEXT && t != MOD_INIT_TEXT)
				continue;
			if (within_module_mem_type(addr, mod, t))
				found = mod;
		}
		if (found)
			break;
	}
	rcu_read_unlock();
	return found;
}

struct module *__module_address(unsigned long addr)
{
	return module_at(addr, false);
}

struct module *__module_text_address(unsigned long addr)
{
	return module_at(addr, true);
}

bool is_module_text_address(unsigned long addr)
{
	return module_at(addr, true);
}
