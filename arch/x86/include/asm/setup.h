/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_SETUP_H
#define _ASM_X86_SETUP_H

#include <linux/types.h>
#include <linux/module_blob.h>

/* The boot loader's command line, its NUL included; a longer one is refused. */
#define COMMAND_LINE_SIZE 4096
/* The whole command line: CONFIG_CMDLINE_DEFAULT, a blank, the loader's. */
#define SAVED_COMMAND_LINE_SIZE (sizeof(CONFIG_CMDLINE_DEFAULT) + COMMAND_LINE_SIZE)
#define E820_MAX_ENTRIES 64

enum e820_type {
	E820_TYPE_RAM = 1,
	E820_TYPE_RESERVED = 2,
	E820_TYPE_ACPI = 3,
	E820_TYPE_NVS = 4,
	E820_TYPE_UNUSABLE = 5,
};

struct e820_entry {
	u64 addr;
	u64 size;
	u32 type;
};

/* A multiboot2 module: [start, end) of physical memory, and its string. */
struct boot_module {
	u64 start, end;
	char name[MODULE_NAME_LEN];
	bool reserved; /* its frames are reserved: it becomes a blob */
};

/* What the boot loader told us, copied out of its memory before it is reused. */
struct boot_params {
	char cmdline[COMMAND_LINE_SIZE];
	char loader_name[64];
	struct e820_entry e820[E820_MAX_ENTRIES];
	unsigned int nr_e820;
	bool has_rsdp;		/* rsdp holds the ACPI RSDP */
	u8 rsdp[36];
	phys_addr_t info_start, info_end;
	struct boot_module modules[MODULE_BLOBS_MAX];
	unsigned int nr_modules;
};

extern struct boot_params boot_params;

void multiboot2_parse(u32 magic, phys_addr_t info);
void setup_arch(void);

#endif /* _ASM_X86_SETUP_H */
