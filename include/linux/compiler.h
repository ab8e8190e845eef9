/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_COMPILER_H
#define _LINUX_COMPILER_H

#define __always_inline inline __attribute__((__always_inline__))
#define noinline __attribute__((__noinline__))
#define __noreturn __attribute__((__noreturn__))
#define __packed __attribute__((__packed__))
#define __aligned(x) __attribute__((__aligned__(x)))
#define __section(s) __attribute__((__section__(s)))
/* Linux's sparse address space of per-CPU pointers: nothing checks it here. */
#define __percpu
#define __used __attribute__((__used__))
#define __maybe_unused __attribute__((__unused__))
#define __weak __attribute__((__weak__))
#define __printf(a, b) __attribute__((__format__(printf, a, b)))
#define __cold __attribute__((__cold__))
/* The attributes of sym too (an alias of an __init function is cold too). */
#define __copy(sym) __attribute__((__copy__(sym)))
#define __deprecated __attribute__((__deprecated__))
#define __must_check __attribute__((__warn_unused_result__))
#define __visible __attribute__((__externally_visible__))

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

#define barrier() asm volatile("" ::: "memory")

#define __stringify_1(x...) #x
#define __stringify(x...) __stringify_1(x)

#define ___PASTE(a, b) a##b
#define __PASTE(a, b) ___PASTE(a, b)
#define __UNIQUE_ID(prefix) __PASTE(__PASTE(__UNIQUE_ID_, prefix), __COUNTER__)

#define __same_type(a, b) __builtin_types_compatible_p(typeof(a), typeof(b))

/*
 * Single-copy accesses the compiler may neither tear, merge nor elide.
 * Under ThreadSanitizer (the engine's host fuzzer, tests/fuzz/engine/)
 * they are relaxed atomics, which is what they mean: TSan then reports
 * plain accesses that race, not these.
 */
#if defined(__SANITIZE_THREAD__)
#define __ONCE_ATOMIC 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define __ONCE_ATOMIC 1
#endif
#endif
#ifdef __ONCE_ATOMIC
#define READ_ONCE(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, val) __atomic_store_n(&(x), (val), __ATOMIC_RELAXED)
#else
#define READ_ONCE(x) (*(const volatile typeof(x) *)&(x))
#define WRITE_ONCE(x, val)                                \
	do {                                              \
		*(volatile typeof(x) *)&(x) = (val);      \
	} while (0)
#endif

/* The address of the code that uses it, and of the caller of this function. */
#define _THIS_IP_                                  \
	({                                         \
		__label__ __here;                  \
	__here:                                    \
		(unsigned long)&&__here;           \
	})
#define _RET_IP_ ((unsigned long)__builtin_return_address(0))

#define ARRAY_SIZE(arr) (sizeof(arr) / sizeof((arr)[0]))

#endif /* _LINUX_COMPILER_H */
