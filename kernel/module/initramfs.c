// SPDX-License-Identifier: GPL-2.0
/*
 * The boot archive: one blob the boot loader hands over (its string
 * "initramfs"), a cpio archive of the "newc" format Linux's initramfs
 * uses, which carries everything else the kernel reads from the boot
 * medium. An entry named "/bin/NAME" is a program for exec (gzip-packed,
 * unpacked when first executed: kernel/exec.c), any other a module blob
 * of that name (<linux/module.h>). The data stays where the loader put it
 * (the archive's frames are reserved as one blob's); names and data are
 * used in place, so that the archive is never copied.
 *
 * An entry: the 6 bytes "070701", 13 fields of 8 hex digits (inode, mode,
 * uid, gid, links, mtime, file size, 4 device numbers, name size with its
 * NUL, checksum), the name, padding to 4 bytes, the data, padding to 4.
 * scripts/mkinitramfs.py pads a module's name with NULs so that its data
 * starts 8-byte aligned, as the module loader requires. "TRAILER!!!" ends
 * the archive.
 */
#include <linux/kernel.h>
#include <linux/init.h>
#include <linux/module_blob.h>
#include <linux/process.h>
#include <linux/string.h>

#define CPIO_HDR 110
#define CPIO_MAGIC "070701"

enum {
	F_INO,
	F_MODE,
	F_UID,
	F_GID,
	F_NLINK,
	F_MTIME,
	F_SIZE,
	F_DEVMAJ,
	F_DEVMIN,
	F_RDEVMAJ,
	F_RDEVMIN,
	F_NAMESIZE,
	F_CHECK,
	NR_FIELDS
};

#define S_IFMT 0170000
#define S_IFREG 0100000

static bool __init hex8(const char *p, u32 *val)
{
	u32 v = 0;
	int i;

	for (i = 0; i < 8; i++) {
		char c = p[i];

		if (c >= '0' && c <= '9')
			v = v << 4 | (c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v << 4 | (c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v = v << 4 | (c - 'A' + 10);
		else
			return false;
	}
	*val = v;
	return true;
}

/* Why the entry at off cannot be read, or NULL; its fields in f. */
static const char *__init cpio_header(const char *a, size_t size, size_t off,
				      u32 *f)
{
	int i;

	if (size - off < CPIO_HDR)
		return "truncated header";
	if (memcmp(a + off, CPIO_MAGIC, 6))
		return "no \"070701\" magic (not a newc cpio archive)";
	for (i = 0; i < NR_FIELDS; i++)
		if (!hex8(a + off + 6 + 8 * i, &f[i]))
			return "a header field is not hex";
	if (!f[F_NAMESIZE] || f[F_NAMESIZE] > size - off - CPIO_HDR)
		return "its name runs past the end";
	if (strnlen(a + off + CPIO_HDR, f[F_NAMESIZE]) == f[F_NAMESIZE])
		return "its name has no NUL";
	if (f[F_SIZE] > size - ALIGN(off + CPIO_HDR + f[F_NAMESIZE], 4))
		return "its data runs past the end";
	return NULL;
}

void __init initramfs_unpack(const void *data, size_t size)
{
	const char *a = data, *why = NULL, *name;
	unsigned int mods = 0, progs = 0;
	size_t off = 0, start;
	u32 f[NR_FIELDS];

	for (;;) {
		why = cpio_header(a, size, off, f);
		if (why)
			break;
		name = a + off + CPIO_HDR;
		start = ALIGN(off + CPIO_HDR + f[F_NAMESIZE], 4);
		if (!strcmp(name, "TRAILER!!!"))
			break;
		if ((f[F_MODE] & S_IFMT) != S_IFREG) {
			/* A directory or the like: nothing to use. */
		} else if (!strncmp(name, "/bin/", 5)) {
			progs += !exec_prog_add(name, a + start, f[F_SIZE]);
		} else if (strlen(name) >= MODULE_NAME_LEN) {
			pr_warn("initramfs: %.60s...: not a module name (at most %d characters), ignored\n",
				name, MODULE_NAME_LEN - 1);
		} else {
			mods += !module_blob_add(name, a + start, f[F_SIZE]);
		}
		off = ALIGN(start + f[F_SIZE], 4);
	}
	if (why)
		pr_warn("initramfs: entry at offset %zu: %s: the archive ends there\n",
			off, why);
	pr_info("initramfs: %u modules and %u programs (%zu KiB)\n", mods,
		progs, DIV_ROUND_UP(size, 1024));
}
