/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_SORT_H
#define _LINUX_SORT_H

#include <linux/types.h>

typedef int (*cmp_func_t)(const void *a, const void *b);
typedef void (*swap_func_t)(void *a, void *b, int size);

/*
 * Heapsort: O(n log n), no recursion, no allocation; input already in order
 * returns after num - 1 compares. Not stable. swap_func may be NULL
 * for a plain byte swap; a custom one can fix up position-relative fields.
 */
void sort(void *base, size_t num, size_t size, cmp_func_t cmp_func,
	  swap_func_t swap_func);

#endif /* _LINUX_SORT_H */
