// SPDX-License-Identifier: GPL-2.0
/*
 * The module blobs of the boot loader (<linux/module.h>): name, data and
 * size of each, for the kernel's life. The data stays where the loader put
 * it, its frames reserved, and is read through the direct map; the table
 * is filled during boot (<linux/module_blob.h>) and read-only after.
 */
#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/init.h>
#include <linux/mm.h>
#include <linux/module_blob.h>
#include <linux/string.h>

static struct module_blob blobs[MODULE_BLOBS_MAX] __ro_after_init;
static unsigned int nr_blobs __ro_after_init;

const char *module_blob_check_range(u64 start, u64 end)
{
	u64 first = ALIGN_DOWN(start, PAGE_SIZE);

	if (end < start)
		return "its end is before its start";
	if (frames_free_in(start, end - start) !=
	    (ALIGN(end, PAGE_SIZE) - first) >> PAGE_SHIFT)
		return "not all free RAM (past the end of RAM, or over the kernel or another blob)";
	return NULL;
}

/* Reserves [start, end) for blob name: false, after a message, if it cannot. */
bool __init module_blob_reserve(const char *name, u64 start, u64 end)
{
	const char *why = module_blob_check_range(start, end);

	if (why) {
		pr_warn("modules: blob %s at [mem %#llx-%#llx) ignored: %s\n",
			name, start, end, why);
		return false;
	}
	frame_reserve(start, end - start);
	return true;
}

int __init module_blob_add(const char *name, const void *data, size_t size)
{
	if (module_blob_find(name)) {
		pr_warn("modules: a second blob called %s, ignored\n", name);
		return -EEXIST;
	}
	if (nr_blobs == MODULE_BLOBS_MAX) {
		pr_warn("modules: more than %d blobs, %s ignored\n",
			MODULE_BLOBS_MAX, name);
		return -ENOSPC;
	}
	blobs[nr_blobs++] = (struct module_blob){ name, data, size };
	return 0;
}

const struct module_blob *module_blob_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < nr_blobs; i++)
		if (!strcmp(blobs[i].name, name))
			return &blobs[i];
	return NULL;
}

unsigned int module_blob_count(void)
{
	return nr_blobs;
}

const struct module_blob *module_blob_get(unsigned int i)
{
	return i < nr_blobs ? &blobs[i] : NULL;
}

static int __init module_blob_report(void)
{
	size_t bytes = 0;
	unsigned int i;

	for (i = 0; i < nr_blobs; i++)
		bytes += blobs[i].size;
	pr_info("modules: %u blobs from the boot loader (%zu KiB)\n", nr_blobs,
		DIV_ROUND_UP(bytes, 1024));
	return 0;
}
early_initcall(module_blob_report);
