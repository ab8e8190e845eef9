// SPDX-License-Identifier: GPL-2.0
/*
 * Symbols of loaded modules, for %pS: the loader keeps each module's
 * functions and objects (values made absolute) and its string table in
 * the module's rodata. A symbol counts only while its region is mapped:
 * after init, the init symbols stay in the table but no address reaches
 * them any more.
 */
#include <linux/kernel.h>
#include <linux/elf.h>
#include <linux/module.h>
#include <linux/rcupdate.h>

/* The region of mod holding addr, or -1. */
static int module_region_of(const struct module *mod, unsigned long addr)
{
	int t;

	for (t = 0; t < MOD_MEM_NUM_TYPES; t++)
		if (within_module_mem_type(addr, mod, t))
			return t;
	return -1;
}

/*
 * The symbol of region t at or below addr with the highest value (a
 * sized one before an unsized one at the same value), and where the next
 * symbol or the region's end is: what an unsized symbol extends to.
 */
static const Elf64_Sym *best_symbol(const struct module *mod, int t,
				    unsigned long addr, unsigned long *next)
{
	unsigned long base = (unsigned long)mod->mem[t].base;
	const Elf64_Sym *best = NULL;
	unsigned int i;

	*next = base + mod->mem[t].size;
	for (i = 0; i < mod->num_symtab; i++) {
		const Elf64_Sym *s = &mod->symtab[i];

		if (s->st_value - base >= mod->mem[t].size)
			continue;
		if (s->st_value > addr) {
			*next = min(*next, (unsigned long)s->st_value);
			continue;
		}
		if (!best || s->st_value > best->st_value ||
		    (s->st_value == best->st_value && s->st_size &&
		     !best->st_size))
			best = s;
	}
	return best;
}

const char *module_kallsyms_lookup(unsigned long addr, unsigned long *size,
				   unsigned long *offset, const char **modname)
{
	const char *name = NULL;
	const Elf64_Sym *sym;
	struct module *mod;
	unsigned long next, sz;
	int t;

	rcu_read_lock();
	mod = __module_address(addr);
	t = mod ? module_region_of(mod, addr) : -1;
	sym = t >= 0 ? best_symbol(mod, t, addr, &next) : NULL;
	if (sym) {
		sz = sym->st_size ?: next - sym->st_value;
		if (addr - sym->st_value < sz) {
			name = mod->strtab + sym->st_name;
			if (size)
				*size = sz;
			if (offset)
				*offset = addr - sym->st_value;
			if (modname)
				*modname = mod->name;
		}
	}
	rcu_read_unlock();
	return name;
}
