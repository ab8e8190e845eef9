// SPDX-License-Identifier: GPL-2.0
/*
 * ACPI, as far as SMP needs it: the RSDP (from the boot loader, else found
 * in the BIOS areas) leads to the RSDT or XSDT, which lists the MADT
 * ("APIC"): the local APIC's address and one entry per processor. A table
 * is believed only once its checksum holds (all its bytes sum to 0).
 *
 * Tables are read through the direct map where it covers them, otherwise
 * through an uncached ioremap() (firmware often puts them in memory the
 * e820 map calls reserved); such mappings are few and stay.
 */
#define pr_fmt(fmt) "ACPI: " fmt

#include <linux/kernel.h>
#include <linux/init.h>
#include <linux/string.h>
#include <asm/acpi.h>
#include <asm/apic.h>
#include <asm/page.h>
#include <asm/pgtable.h>
#include <asm/setup.h>
#include <asm/smp.h>

#define RSDP_V1_SIZE 20
#define EBDA_SEG_PTR 0x40e
#define BIOS_ROM_START 0xe0000
#define BIOS_ROM_END 0x100000
#define ACPI_TABLE_MAX (1U << 20) /* a sanity bound on a table's length */

#define MADT_LAPIC 0
#define MADT_LAPIC_OVERRIDE 5
#define MADT_X2APIC 9
#define MADT_LAPIC_ENABLED 1

struct acpi_rsdp {
	char signature[8]; /* "RSD PTR " */
	u8 checksum; /* of the first 20 bytes */
	char oem_id[6];
	u8 revision; /* 0: ACPI 1.0, RSDT only; 2: XSDT too */
	u32 rsdt_address;
	u32 length; /* revision 2: of the whole structure */
	u64 xsdt_address;
	u8 extended_checksum;
	u8 reserved[3];
} __packed;

struct acpi_table_header {
	char signature[4];
	u32 length; /* with the header */
	u8 revision;
	u8 checksum;
	char oem_id[6];
	char oem_table_id[8];
	u32 oem_revision;
	u32 creator_id;
	u32 creator_revision;
} __packed;

struct acpi_madt {
	struct acpi_table_header header;
	u32 lapic_address;
	u32 flags;
	/* entries, each starting with struct acpi_madt_entry */
} __packed;

struct acpi_madt_entry {
	u8 type;
	u8 length;
} __packed;

struct acpi_madt_lapic {
	struct acpi_madt_entry h;
	u8 processor_uid;
	u8 apic_id;
	u32 flags;
} __packed;

struct acpi_madt_lapic_override {
	struct acpi_madt_entry h;
	u16 reserved;
	u64 address;
} __packed;

static u8 __init acpi_checksum(const void *p, size_t len)
{
	const u8 *b = p;
	u8 sum = 0;

	while (len--)
		sum += *b++;
	return sum;
}

static const void *__init acpi_map(phys_addr_t pa, size_t len)
{
	const void *p;

	if (direct_mapped(pa, len))
		return __va(pa);
	p = ioremap(pa, len);
	if (!p)
		pr_err("cannot map %#llx + %zu\n", pa, len);
	return p;
}

/* avail: how many bytes at r may be read (the boot loader's copy is short). */
static bool __init rsdp_valid(const struct acpi_rsdp *r, size_t avail)
{
	if (memcmp(r->signature, "RSD PTR ", 8) ||
	    acpi_checksum(r, RSDP_V1_SIZE))
		return false;
	if (r->revision < 2)
		return true;
	return r->length >= sizeof(*r) && r->length <= avail &&
	       !acpi_checksum(r, r->length);
}

static const struct acpi_rsdp *__init rsdp_scan(phys_addr_t start,
						phys_addr_t end)
{
	phys_addr_t pa;

	for (pa = start; pa + sizeof(struct acpi_rsdp) <= end; pa += 16) {
		const struct acpi_rsdp *r = __va(pa);

		if (rsdp_valid(r, end - pa))
			return r;
	}
	return NULL;
}

/* The boot loader's copy, else the first KiB of the EBDA, else the ROM. */
static const struct acpi_rsdp *__init acpi_find_rsdp(void)
{
	const struct acpi_rsdp *r = (const void *)boot_params.rsdp;
	u16 ebda_seg = *(u16 *)__va(EBDA_SEG_PTR);
	phys_addr_t ebda = (phys_addr_t)ebda_seg << 4;

	if (boot_params.has_rsdp) {
		if (rsdp_valid(r, sizeof(boot_params.rsdp)))
			return r;
		pr_warn("the boot loader's RSDP is invalid, scanning for one\n");
	}
	r = ebda ? rsdp_scan(ebda, ebda + 1024) : NULL;
	return r ? r : rsdp_scan(BIOS_ROM_START, BIOS_ROM_END);
}

/* The table at pa, mapped whole; NULL (reason printed) if it is not sound. */
static const struct acpi_table_header *__init acpi_map_table(phys_addr_t pa)
{
	const struct acpi_table_header *h = acpi_map(pa, sizeof(*h));
	u32 len;

	if (!h)
		return NULL;
	len = h->length;
	if (len < sizeof(*h) || len > ACPI_TABLE_MAX) {
		pr_err("%.4s at %#llx: implausible length %u\n", h->signature,
		       pa, len);
		return NULL;
	}
	h = acpi_map(pa, len);
	if (h && acpi_checksum(h, len)) {
		pr_err("%.4s at %#llx: bad checksum\n", h->signature, pa);
		return NULL;
	}
	return h;
}

/* The XSDT if there is one (ACPI 2.0+), else the RSDT; its entry size. */
static const struct acpi_table_header *__init
acpi_root_table(const struct acpi_rsdp *rsdp, size_t *entry_size)
{
	bool xsdt = rsdp->revision >= 2 && rsdp->xsdt_address;
	phys_addr_t pa = xsdt ? rsdp->xsdt_address : rsdp->rsdt_address;
	const char *sig = xsdt ? "XSDT" : "RSDT";
	const struct acpi_table_header *h = acpi_map_table(pa);

	*entry_size = xsdt ? 8 : 4;
	if (h && memcmp(h->signature, sig, 4)) {
		pr_err("the %s at %#llx is signed \"%.4s\"\n", sig, pa,
		       h->signature);
		return NULL;
	}
	return h;
}

/* The address of the table signed sig that root lists, or 0. */
static phys_addr_t __init acpi_find_table(const struct acpi_table_header *root,
					  size_t entry_size, const char *sig)
{
	const u8 *entries = (const u8 *)(root + 1);
	size_t i, n = (root->length - sizeof(*root)) / entry_size;

	for (i = 0; i < n; i++) {
		const struct acpi_table_header *h;
		u64 pa = 0;

		/* Entries may be unaligned; both sizes are little-endian. */
		memcpy(&pa, entries + i * entry_size, entry_size);
		h = pa ? acpi_map(pa, sizeof(*h)) : NULL;
		if (h && !memcmp(h->signature, sig, 4))
			return pa;
	}
	return 0;
}

struct madt_counts {
	unsigned int enabled, disabled, dropped, x2apic;
};

static void __init madt_entry(const struct acpi_madt_entry *e,
			      struct madt_counts *c)
{
	const struct acpi_madt_lapic *lapic = (const void *)e;
	const struct acpi_madt_lapic_override *ovr = (const void *)e;

	switch (e->type) {
	case MADT_LAPIC:
		if (e->length < sizeof(*lapic))
			break;
		if (!(lapic->flags & MADT_LAPIC_ENABLED))
			c->disabled++;
		else if (smp_register_cpu(lapic->apic_id) < 0)
			c->dropped++;
		else
			c->enabled++;
		break;
	case MADT_LAPIC_OVERRIDE:
		if (e->length >= sizeof(*ovr))
			register_lapic_address(ovr->address);
		break;
	case MADT_X2APIC:
		c->x2apic++;
		break;
	}
}

static void __init madt_parse(const struct acpi_madt *madt,
			      struct madt_counts *c)
{
	const u8 *p = (const u8 *)(madt + 1);
	const u8 *end = (const u8 *)madt + madt->header.length;

	/* The header's address first: an override entry replaces it. */
	register_lapic_address(madt->lapic_address);
	while (p + sizeof(struct acpi_madt_entry) <= end) {
		const struct acpi_madt_entry *e = (const void *)p;

		if (e->length < sizeof(*e) || p + e->length > end) {
			pr_err("MADT: bad entry at offset %#lx, ignoring the rest\n",
			       (unsigned long)(p - (const u8 *)madt));
			break;
		}
		madt_entry(e, c);
		p += e->length;
	}
}

int __init acpi_boot_init(void)
{
	const struct acpi_rsdp *rsdp = acpi_find_rsdp();
	const struct acpi_table_header *root;
	const struct acpi_madt *madt = NULL;
	struct madt_counts c = {};
	size_t entry_size;
	phys_addr_t pa;

	if (!rsdp) {
		pr_err("no valid RSDP (boot loader, EBDA, BIOS ROM)\n");
		return -ENODEV;
	}
	root = acpi_root_table(rsdp, &entry_size);
	if (!root)
		return -EINVAL;
	pa = acpi_find_table(root, entry_size, "APIC");
	if (pa)
		madt = (const void *)acpi_map_table(pa);
	if (!madt || madt->header.length < sizeof(*madt)) {
		pr_err("no valid MADT (\"APIC\") in the %.4s\n",
		       root->signature);
		return -ENODEV;
	}
	madt_parse(madt, &c);
	pr_info("RSDP rev %u (%.6s), %.4s, MADT at %#llx: %u CPUs enabled, %u disabled\n",
		rsdp->revision, rsdp->oem_id, root->signature, pa, c.enabled,
		c.disabled);
	if (c.dropped)
		pr_warn("%u CPUs ignored: NR_CPUS is %d\n", c.dropped, NR_CPUS);
	if (c.x2apic)
		pr_warn("%u x2APIC entries ignored: xAPIC only\n", c.x2apic);
	return 0;
}
