/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_SORT_H
#define _LINUX_SORT_H

#include <linux/types.h>

typedef int (*cmp_func_t)(const void *a, const void *b);
typedef void (*swap_func_t)(void *a, void *b, int size);

/*
 * Heapsort: O(n log n), no recursion, no allocation. Not stable. swap_func
 * may be NULL for a plain byte swap; a custom one can fix up
 * position-relative fields.
 */
void sort(void *base, size_t num, size_t size, cmp_func_t cmp_func,
	  swap_func_t swap_func);

/*
 * True if the input is in order: at most num - 1 compares, stopping at
 * the first pair out of order. For a caller whose input is usually
 * sorted already (a module's sites as the assembler laid them out):
 * "if (!is_sorted(...)) sort(...)".
 */
static inline bool is_sorted(const void *base, size_t num, size_t size,
			     cmp_func_t cmp_func)
{
	const char *b = base;
	size_t i;

	for (i = 1; i < num; i++)
		if (cmp_func(b + (i - 1) * size, b + i * size) > 0)
			return false;
	return true;
}

#endif /* _LINUX_SORT_H */
