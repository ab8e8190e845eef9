// SPDX-License-Identifier: GPL-2.0
/*
 * TEMPORARY, for the modload branch alone: the blob API of <linux/module.h>
 * (the .ko files GRUB loads) is another branch's work. Until it lands
 * these weak stand-ins serve the test modules that CONFIG_MODULE_TEST
 * embeds in the image (kernel/module/test_blobs.S), and nothing without
 * it. The lead deletes this file (and its line in kernel/module/Makefile)
 * at the merge, and the tests then find the same modules on the ISO.
 */
#include <linux/compiler.h>
#include <linux/module.h>
#include <linux/string.h>

extern const struct module_blob module_test_blobs[] __weak;
extern const unsigned int module_test_nr_blobs __weak;

unsigned int __weak module_blob_count(void)
{
	return &module_test_nr_blobs ? module_test_nr_blobs : 0;
}

const struct module_blob *__weak module_blob_get(unsigned int i)
{
	return i < module_blob_count() ? &module_test_blobs[i] : NULL;
}

const struct module_blob *__weak module_blob_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < module_blob_count(); i++)
		if (!strcmp(module_test_blobs[i].name, name))
			return &module_test_blobs[i];
	return NULL;
}
