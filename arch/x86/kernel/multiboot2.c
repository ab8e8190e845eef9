// SPDX-License-Identifier: GPL-2.0
/*
 * The multiboot2 boot information: a u32 total size, a u32 reserved, then
 * 8-byte aligned tags {u32 type, u32 size, payload} up to an end tag (type
 * 0). We keep copies of the command line, the memory map, the ACPI RSDP and
 * where each module is, with its string (the module's name); the modules
 * themselves stay where the loader put them (setup.c reserves them).
 */
#include <linux/kernel.h>
#include <linux/init.h>
#include <linux/string.h>
#include <asm/page.h>
#include <asm/setup.h>

#define MB2_BOOTLOADER_MAGIC 0x36d76289
#define MB2_TAG_END 0
#define MB2_TAG_CMDLINE 1
#define MB2_TAG_LOADER_NAME 2
#define MB2_TAG_MODULE 3
#define MB2_TAG_MMAP 6
#define MB2_TAG_ACPI_OLD 14
#define MB2_TAG_ACPI_NEW 15

struct mb2_tag {
	u32 type;
	u32 size;
};

struct mb2_module {
	u32 type;
	u32 size;
	u32 mod_start;
	u32 mod_end;
	/* char string[], NUL-terminated */
};

struct mb2_mmap {
	u32 type;
	u32 size;
	u32 entry_size;
	u32 entry_version;
	/* struct mb2_mmap_entry entries[] */
};

struct mb2_mmap_entry {
	u64 addr;
	u64 len;
	u32 type;
	u32 reserved;
};

struct boot_params boot_params;

static void __init parse_mmap(const struct mb2_mmap *m)
{
	const u8 *p = (const u8 *)(m + 1);
	const u8 *end = (const u8 *)m + m->size;

	for (; p + m->entry_size <= end; p += m->entry_size) {
		const struct mb2_mmap_entry *e = (const void *)p;
		struct e820_entry *d;

		if (boot_params.nr_e820 == E820_MAX_ENTRIES) {
			pr_warn("multiboot2: memory map truncated at %d entries\n",
				E820_MAX_ENTRIES);
			return;
		}
		d = &boot_params.e820[boot_params.nr_e820++];
		d->addr = e->addr;
		d->size = e->len;
		d->type = e->type;
	}
}

/*
 * A command line too long for boot_params is refused, not cut: the words
 * after the cut (a test filter, say) would be lost or halved, and the boot
 * would do something else than asked.
 */
static void __init parse_cmdline(const char *s, size_t max)
{
	size_t len = strnlen(s, max), room = sizeof(boot_params.cmdline) - 1;
	size_t cut = room;

	if (len > room) {
		while (cut && s[cut - 1] != ' ')
			cut--;
		panic("command line too long: %zu bytes, at most %zu fit: the words from \"%.60s%s\" on would be lost",
		      len, room, s + cut, len - cut > 60 ? "..." : "");
	}
	memcpy(boot_params.cmdline, s, len);
	boot_params.cmdline[len] = '\0';
}

/* The string is the module's name: one the loader cannot use is refused. */
static void __init parse_module(const struct mb2_module *m)
{
	const char *name = (const char *)(m + 1);
	size_t len = 0;
	struct boot_module *b;

	if (m->size > sizeof(*m))
		len = strnlen(name, m->size - sizeof(*m));
	if (!len || len >= MODULE_NAME_LEN) {
		pr_warn("multiboot2: module at %#x: its string \"%.*s\" is not a module name (1 to %d characters), ignored\n",
			m->mod_start, (int)min(len, 80), name,
			MODULE_NAME_LEN - 1);
		return;
	}
	if (boot_params.nr_modules == MODULE_BLOBS_MAX) {
		pr_warn("multiboot2: more than %d modules, %s ignored\n",
			MODULE_BLOBS_MAX, name);
		return;
	}
	b = &boot_params.modules[boot_params.nr_modules++];
	b->start = m->mod_start;
	b->end = m->mod_end;
	memcpy(b->name, name, len);
	b->name[len] = '\0';
}

static void __init parse_tag(const struct mb2_tag *tag)
{
	const char *payload = (const char *)(tag + 1);
	size_t len = tag->size - sizeof(*tag);

	switch (tag->type) {
	case MB2_TAG_CMDLINE:
		parse_cmdline(payload, len);
		break;
	case MB2_TAG_LOADER_NAME:
		strscpy(boot_params.loader_name, payload,
			sizeof(boot_params.loader_name));
		break;
	case MB2_TAG_MODULE:
		parse_module((const struct mb2_module *)tag);
		break;
	case MB2_TAG_MMAP:
		parse_mmap((const struct mb2_mmap *)tag);
		break;
	case MB2_TAG_ACPI_OLD:
	case MB2_TAG_ACPI_NEW:
		if (!boot_params.has_rsdp) {
			memcpy(boot_params.rsdp, payload,
			       min(len, sizeof(boot_params.rsdp)));
			boot_params.has_rsdp = true;
		}
		break;
	}
}

void __init multiboot2_parse(u32 magic, phys_addr_t info)
{
	const u8 *base = __va(info);
	u32 total = *(const u32 *)base;
	const u8 *p = base + 8;

	if (magic != MB2_BOOTLOADER_MAGIC)
		panic("not booted by a multiboot2 loader (magic %#x)", magic);
	boot_params.info_start = info;
	boot_params.info_end = info + total;
	while (p + sizeof(struct mb2_tag) <= base + total) {
		const struct mb2_tag *tag = (const void *)p;

		if (tag->type == MB2_TAG_END || tag->size < sizeof(*tag))
			break;
		parse_tag(tag);
		p += ALIGN(tag->size, 8);
	}
}
