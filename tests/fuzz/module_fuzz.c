// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the module loader's pure part (kernel/module/elf.c,
 * arch/x86/kernel/module.c) on arbitrary bytes, built for the host with
 * clang -fsanitize=fuzzer,address,undefined. The shim stands in for the
 * kernel: messages go nowhere (counted), allocations are calloc(), every
 * undefined symbol resolves to a fake kernel address (or fails, by the
 * first letter of its name, so both paths run), and module memory is
 * malloc()ed buffers that "run" at module-area addresses, so relocations
 * see the values and ranges they see in the kernel.
 *
 * Each input goes through the loader's steps as load_module_blob() takes
 * them: check, layout, copy, resolve, relocate, kallsyms, exports.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "linux/moduleloader.h"

#define FAKE_MODULES_VADDR 0xffffffffa0000000ULL
#define FAKE_KERNEL_SYMBOL 0xffffffff81234560ULL

static unsigned long messages;

void module_elf_err(const struct load_info *info, const char *fmt, ...)
{
	char buf[256];
	va_list args;

	va_start(args, fmt);
	vsnprintf(buf, sizeof(buf), fmt, args);
	va_end(args);
	messages++;
}

void module_elf_warn(const struct load_info *info, const char *fmt, ...)
{
	char buf[256];
	va_list args;

	va_start(args, fmt);
	vsnprintf(buf, sizeof(buf), fmt, args);
	va_end(args);
}

void *module_elf_alloc(size_t size)
{
	return calloc(1, size ? size : 1);
}

void module_elf_free(void *p)
{
	free(p);
}

int module_elf_resolve(struct load_info *info, const char *name, bool weak,
		       u64 *value)
{
	if (name[0] == 'x' && !weak)
		return -ENOENT;
	*value = FAKE_KERNEL_SYMBOL + (unsigned char)name[0];
	return 0;
}

static int alloc_regions(struct load_info *info)
{
	u64 addr = FAKE_MODULES_VADDR;
	int t;

	for (t = 0; t < MOD_LOAD_NUM_TYPES; t++) {
		if (!info->size[t])
			continue;
		info->base[t] = calloc(1, info->size[t]);
		if (!info->base[t])
			return -ENOMEM;
		info->addr[t] = addr;
		addr += ((u64)info->size[t] + 4095) / 4096 * 4096 + 4096;
	}
	return 0;
}

static void run(struct load_info *info)
{
	unsigned int i;

	if (module_elf_check(info) || module_layout(info) ||
	    alloc_regions(info) || module_resolve_symbols(info))
		return;
	module_copy_sections(info);
	if (module_apply_relocations(info))
		return;
	module_copy_kallsyms(info);
	i = module_find_section(info, "__ksymtab");
	if (i)
		module_check_exports(info, i);
	i = module_find_section(info, "__ksymtab_gpl");
	if (i)
		module_check_exports(info, i);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* 8-byte aligned, as GRUB's page-aligned modules are. */
	void *image = malloc(size ? size : 1);
	struct load_info info = {
		.name = NULL,
		.image = image,
		.len = size,
		.this_module_size = 512,
	};
	int t;

	memcpy(image, data, size);
	run(&info);
	for (t = 0; t < MOD_LOAD_NUM_TYPES; t++)
		free(info.base[t]);
	module_elf_release(&info);
	free(image);
	return 0;
}
