/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_INFLATE_H
#define _LINUX_INFLATE_H

#include <linux/types.h>

/* The decoder's state and Huffman tables: the caller's (1.3 KiB). */
struct inflate_work {
	unsigned long space[168];
};

/* Whether data starts as a gzip member of the deflate method. */
bool is_gzip(const void *data, size_t len);
/* The length a gzip member says it unpacks to (its trailer), 0 if none. */
size_t gzip_size(const void *data, size_t len);
/*
 * Unpacks the gzip member in[0..in_len) into out[0..out_len): the bytes
 * written, or -EINVAL (not gzip, a malformed or truncated stream), -ENOSPC
 * (more than out_len) or -EBADMSG (its CRC-32 or length is not what it
 * says). work is scratch space for the call.
 */
ssize_t gunzip(const void *in, size_t in_len, void *out, size_t out_len,
	       struct inflate_work *work);
/* zlib's CRC-32 of data, continuing crc (0 to start). */
u32 crc32_le(u32 crc, const void *data, size_t len);

#endif /* _LINUX_INFLATE_H */
