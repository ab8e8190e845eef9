/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_ATOMIC_H
#define _LINUX_ATOMIC_H

#include <linux/types.h>

/*
 * atomic_t on the compiler's __atomic builtins: plain operations are
 * relaxed, value-returning read-modify-writes are fully ordered, as in
 * Linux's atomic_t.txt.
 */
#define ATOMIC_INIT(i) { (i) }

static inline int atomic_read(const atomic_t *v)
{
	return __atomic_load_n(&v->counter, __ATOMIC_RELAXED);
}

static inline int atomic_read_acquire(const atomic_t *v)
{
	return __atomic_load_n(&v->counter, __ATOMIC_ACQUIRE);
}

static inline void atomic_set(atomic_t *v, int i)
{
	__atomic_store_n(&v->counter, i, __ATOMIC_RELAXED);
}

static inline void atomic_set_release(atomic_t *v, int i)
{
	__atomic_store_n(&v->counter, i, __ATOMIC_RELEASE);
}

static inline void atomic_inc(atomic_t *v)
{
	__atomic_fetch_add(&v->counter, 1, __ATOMIC_RELAXED);
}

static inline void atomic_add(int i, atomic_t *v)
{
	__atomic_fetch_add(&v->counter, i, __ATOMIC_RELAXED);
}

static inline void atomic_dec(atomic_t *v)
{
	__atomic_fetch_sub(&v->counter, 1, __ATOMIC_RELAXED);
}

static inline int atomic_add_return(int i, atomic_t *v)
{
	return __atomic_add_fetch(&v->counter, i, __ATOMIC_SEQ_CST);
}

static inline int atomic_inc_return(atomic_t *v)
{
	return atomic_add_return(1, v);
}

static inline bool atomic_dec_and_test(atomic_t *v)
{
	return __atomic_sub_fetch(&v->counter, 1, __ATOMIC_SEQ_CST) == 0;
}

/* On failure *old is updated to the value found. */
static inline bool atomic_try_cmpxchg(atomic_t *v, int *old, int new)
{
	return __atomic_compare_exchange_n(&v->counter, old, new, false,
					   __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);
}

static inline int atomic_cmpxchg(atomic_t *v, int old, int new)
{
	atomic_try_cmpxchg(v, &old, new);
	return old;
}

static inline int atomic_xchg(atomic_t *v, int new)
{
	return __atomic_exchange_n(&v->counter, new, __ATOMIC_SEQ_CST);
}

#endif /* _LINUX_ATOMIC_H */
