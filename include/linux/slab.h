/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_SLAB_H
#define _LINUX_SLAB_H

#include <linux/types.h>
#include <linux/compiler.h>

typedef unsigned int gfp_t;
#define GFP_KERNEL 0u
#define GFP_ATOMIC 0u
#define __GFP_ZERO 1u

/*
 * Power-of-two size classes from 16 to 2048 bytes carved out of frames;
 * larger requests take whole contiguous frames. Every block starts with a
 * 16-byte header that kfree() checks, so a bad or double free WARNs instead
 * of corrupting the lists.
 */
void *kmalloc(size_t size, gfp_t flags) __must_check;
void *kzalloc(size_t size, gfp_t flags) __must_check;
void *kcalloc(size_t n, size_t size, gfp_t flags) __must_check;
void kfree(const void *p);
size_t ksize(const void *p);

/*
 * What is allocated now: blocks not yet freed, and the bytes they take
 * (size class, or whole frames for large blocks, headers included). For
 * leak tests: a balanced operation leaves both as they were.
 */
void kmalloc_usage(unsigned long *objects, unsigned long *bytes);
/* Frames kmalloc keeps for small objects (never given back). */
unsigned long kmalloc_cache_frames(void);

/*
 * Fault injection, for tests: the next n calls of kmalloc() (and so of
 * kzalloc() and kcalloc()) return NULL; 0 stops it. Returns how many of
 * the previous request were still pending. kmalloc_fail_after() lets skip
 * calls succeed first, to reach a later allocation of one operation.
 */
unsigned int kmalloc_fail_next(unsigned int n);
void kmalloc_fail_after(unsigned int skip, unsigned int n);

#endif /* _LINUX_SLAB_H */
