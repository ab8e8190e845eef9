// SPDX-License-Identifier: GPL-2.0
/*
 * Modules' per-CPU variables. The per-CPU template ends with a reserve of
 * CONFIG_MODULE_PERCPU_RESERVE bytes ([__per_cpu_module_start,
 * __per_cpu_end), <linux/percpu.h>) that every possible CPU's area copies
 * like the rest: a module's .data..percpu section gets a chunk of it, so
 * that its variables' template addresses, plus a CPU's per-CPU offset, are
 * that CPU's copies, exactly as for the kernel's own variables: %gs:var,
 * per_cpu_ptr() and exports all work unchanged. The template addresses
 * are in the kernel image, in reach of 32-bit relocations from the module
 * area, and unmapped once init memory is freed: a stray access by name
 * faults instead of touching another CPU's data.
 *
 * The chunks are kept by address on one list (the modules holding one),
 * under module_mutex; allocation is first fit, at the section's alignment.
 * Every byte of the reserve that no module holds is zero on every CPU: a
 * chunk is zeroed as it is freed, which is also what the loader's copy and
 * its relocations (which expect zeroed fields) need of a new one.
 */
#include <linux/kernel.h>
#include <linux/cpumask.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/moduleloader.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/string.h>
#include "internal.h"

static LIST_HEAD(percpu_chunks);
static size_t percpu_used;

size_t module_percpu_reserve_size(void)
{
	return __per_cpu_end - __per_cpu_module_start;
}

size_t module_percpu_free_bytes(void)
{
	size_t used;

	mutex_lock(&module_mutex);
	used = percpu_used;
	mutex_unlock(&module_mutex);
	return module_percpu_reserve_size() - used;
}

/* RCU-free: the chunks change under module_mutex only, so callers hold it. */
bool is_module_percpu_address(unsigned long addr)
{
	struct module *mod;

	lockdep_assert_held(&module_mutex);
	list_for_each_entry(mod, &percpu_chunks, percpu_list)
		if (addr - (unsigned long)mod->percpu < mod->percpu_size)
			return true;
	return false;
}

static unsigned long align_up(unsigned long x, unsigned long align)
{
	return (x + align - 1) & ~(align - 1);
}

/*
 * First fit: the lowest address, aligned to align, where size bytes fit
 * between two chunks; 0 if none. *next is the chunk it goes before (the
 * list head for the end).
 */
static unsigned long find_gap(size_t size, unsigned long align,
			      struct list_head **next)
{
	unsigned long start = (unsigned long)__per_cpu_module_start;
	unsigned long end = (unsigned long)__per_cpu_end, at;
	struct module *mod;

	list_for_each_entry(mod, &percpu_chunks, percpu_list) {
		at = align_up(start, align);
		if (at + size <= (unsigned long)mod->percpu) {
			*next = &mod->percpu_list;
			return at;
		}
		start = (unsigned long)mod->percpu + mod->percpu_size;
	}
	at = align_up(start, align);
	*next = &percpu_chunks;
	return at + size <= end ? at : 0;
}

/*
 * Steps 3 and 5 (Documentation/modules.rst), under module_mutex: a chunk
 * for the module's .data..percpu, if it has one, that the loader writes
 * through the first possible CPU's copy. 0, or -ENOMEM after one line.
 */
int module_percpu_alloc(struct load_info *info, struct module *mod)
{
	const Elf64_Shdr *s = &info->sechdrs[info->percpu_index];
	/* An empty section's symbols still need an address of their own. */
	size_t size = info->size[MOD_PERCPU] ?: 1;
	unsigned long align = s->sh_addralign ?: 1, at;
	struct list_head *next;

	lockdep_assert_held(&module_mutex);
	INIT_LIST_HEAD(&mod->percpu_list);
	if (!info->percpu_index)
		return 0;
	at = find_gap(size, align, &next);
	if (!at) {
		pr_err("module %s: per-CPU section .data..percpu of %zu bytes (aligned to %lu) does not fit the per-CPU reserve for modules (%zu of %zu bytes free)\n",
		       mod->name, size, align,
		       module_percpu_reserve_size() - percpu_used,
		       module_percpu_reserve_size());
		return -ENOMEM;
	}
	mod->percpu = (void __percpu *)at;
	mod->percpu_size = size;
	list_add_tail(&mod->percpu_list, next);
	percpu_used += size;
	info->addr[MOD_PERCPU] = at;
	info->base[MOD_PERCPU] =
		per_cpu_ptr((u8 *)at, cpumask_first(cpu_possible_mask));
	return 0;
}

/*
 * Step 5, after the copy and the relocations: every other possible CPU's
 * copy gets the initial contents, before anything can run the module.
 */
void module_percpu_populate(struct module *mod)
{
	unsigned int first = cpumask_first(cpu_possible_mask), cpu;
	const void *src = per_cpu_ptr(mod->percpu, first);

	if (!mod->percpu)
		return;
	for_each_possible_cpu(cpu)
		if (cpu != first)
			memcpy(per_cpu_ptr(mod->percpu, cpu), src,
			       mod->percpu_size);
}

/* Under module_mutex, with the module gone or never run: zero, give back. */
void module_percpu_free(struct module *mod)
{
	unsigned int cpu;

	lockdep_assert_held(&module_mutex);
	if (!mod->percpu)
		return;
	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(mod->percpu, cpu), 0, mod->percpu_size);
	list_del_init(&mod->percpu_list);
	percpu_used -= mod->percpu_size;
	mod->percpu = NULL;
	mod->percpu_size = 0;
}
