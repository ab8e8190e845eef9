// SPDX-License-Identifier: GPL-2.0
#include <linux/export.h>
#include <linux/sort.h>

/*
 * Swaps two elements a word at a time when their size and addresses allow
 * (a text_poke_loc is two 8-byte words, a jump_entry three 4-byte ones),
 * else a byte at a time.
 */
static void generic_swap(void *a, void *b, int size)
{
	unsigned long align = (unsigned long)a | (unsigned long)b | size;

	if (!(align & 7)) {
		u64 *x = a, *y = b, t;

		for (; size; size -= 8) {
			t = *x;
			*x++ = *y;
			*y++ = t;
		}
	} else if (!(align & 3)) {
		u32 *x = a, *y = b, t;

		for (; size; size -= 4) {
			t = *x;
			*x++ = *y;
			*y++ = t;
		}
	} else {
		char *x = a, *y = b, t;

		while (size--) {
			t = *x;
			*x++ = *y;
			*y++ = t;
		}
	}
}

/* Moves element i down the heap of n elements until it is in order. */
static void sift_down(char *base, size_t i, size_t n, size_t size,
		      cmp_func_t cmp, swap_func_t swap)
{
	for (;;) {
		size_t child = 2 * i + 1;

		if (child >= n)
			return;
		if (child + 1 < n &&
		    cmp(base + child * size, base + (child + 1) * size) < 0)
			child++;
		if (cmp(base + i * size, base + child * size) >= 0)
			return;
		swap(base + i * size, base + child * size, size);
		i = child;
	}
}

void sort(void *base, size_t num, size_t size, cmp_func_t cmp_func,
	  swap_func_t swap_func)
{
	char *b = base;
	size_t i;

	if (!swap_func)
		swap_func = generic_swap;
	if (num < 2)
		return;
	for (i = num / 2; i-- > 0;)
		sift_down(b, i, num, size, cmp_func, swap_func);
	for (i = num - 1; i > 0; i--) {
		swap_func(b, b + i * size, size);
		sift_down(b, 0, i, size, cmp_func, swap_func);
	}
}
EXPORT_SYMBOL(sort);
