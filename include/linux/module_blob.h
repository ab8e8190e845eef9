/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_MODULE_BLOB_H
#define _LINUX_MODULE_BLOB_H

/*
 * How the architecture hands the boot loader's modules to the blob table
 * of <linux/module.h> (module_blob_find() and friends), at boot:
 *
 *  1. module_blob_reserve() for each, once the frame allocator knows RAM
 *     and before anything allocates: a usable range has its frames
 *     reserved for good; another one is refused with a one-line message;
 *  2. module_blob_add() for each reserved one, once the direct map is up,
 *     with its name (which must outlive init memory) and its data.
 */
#include <linux/module.h>

/* The most blobs the kernel keeps; the boot loader's extras are ignored. */
#define MODULE_BLOBS_MAX 128

/*
 * Why [start, end) of physical memory cannot hold a blob (end before
 * start, a frame that is not free RAM: past the end of RAM, beyond what
 * the kernel manages, over the kernel or another blob), or NULL if it can.
 */
const char *module_blob_check_range(u64 start, u64 end);
bool module_blob_reserve(const char *name, u64 start, u64 end);
int module_blob_add(const char *name, const void *data, size_t size);
/*
 * The boot archive (kernel/module/initramfs.c), a blob the boot loader
 * hands over as "initramfs": each of its programs to exec_prog_add(), its
 * modules to module_blob_add(), in place.
 */
#define INITRAMFS_BLOB "initramfs"
void initramfs_unpack(const void *data, size_t size);

#endif /* _LINUX_MODULE_BLOB_H */
