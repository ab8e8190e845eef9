/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_STATIC_CALL_TYPES_H
#define _LINUX_STATIC_CALL_TYPES_H

/*
 * The names and types of static calls, shared by <linux/static_call.h>
 * and the host tool that finds their call sites (scripts/static_call_table.c
 * reads the prefixes below): a call "foo" is the key __SCK__foo and the
 * trampoline __SCT__foo.
 */
#include <linux/compiler.h>
#include <linux/types.h>

#define STATIC_CALL_KEY_PREFIX __SCK__
#define STATIC_CALL_KEY_PREFIX_STR __stringify(STATIC_CALL_KEY_PREFIX)
#define STATIC_CALL_KEY_PREFIX_LEN (sizeof(STATIC_CALL_KEY_PREFIX_STR) - 1)
#define STATIC_CALL_KEY(name) __PASTE(STATIC_CALL_KEY_PREFIX, name)
#define STATIC_CALL_KEY_STR(name) __stringify(STATIC_CALL_KEY(name))

#define STATIC_CALL_TRAMP_PREFIX __SCT__
#define STATIC_CALL_TRAMP_PREFIX_STR __stringify(STATIC_CALL_TRAMP_PREFIX)
#define STATIC_CALL_TRAMP_PREFIX_LEN (sizeof(STATIC_CALL_TRAMP_PREFIX_STR) - 1)
#define STATIC_CALL_TRAMP(name) __PASTE(STATIC_CALL_TRAMP_PREFIX, name)
#define STATIC_CALL_TRAMP_STR(name) __stringify(STATIC_CALL_TRAMP(name))

/*
 * One call site of the kernel image, in the table the build makes
 * (__static_call_sites, sorted by trampoline then address): offsets from
 * the field itself, as jump entries are. Bit 0 of tramp says the site is
 * a tail call (a jmp, not a call): trampolines are 8-byte aligned.
 */
struct static_call_site {
	s32 addr;
	s32 tramp;
};
#define STATIC_CALL_SITE_TAIL 1UL

/* Which key a trampoline belongs to (__static_call_tramp_key). */
struct static_call_tramp_key {
	s32 tramp;
	s32 key;
};

struct static_call_mod;

/*
 * A static call. func is the target (NULL: none, __static_call_return0:
 * return 0). The rest is the patcher's, under static_call_mutex: the
 * kernel's sites (a slice of the table), the modules' (one node per module
 * with sites of this call), and what the call may be set to.
 */
struct static_call_key {
	void *func;
	void *tramp;		/* NULL without CONFIG_STATIC_CALL */
	const char *name;
	bool nullable;		/* DEFINE_STATIC_CALL_NULL: may be set to NULL */
	unsigned int nr_sites;
	const struct static_call_site *sites;
	struct static_call_mod *mods;
};

#define __STATIC_CALL_KEY_INIT(_name, _func, _null, _tramp)                   \
	{                                                                      \
		.func = _func, .tramp = _tramp, .name = #_name,                \
		.nullable = _null,                                             \
	}

#define DECLARE_STATIC_CALL(name, func)                                        \
	extern struct static_call_key STATIC_CALL_KEY(name);                   \
	extern typeof(func) STATIC_CALL_TRAMP(name)

#endif /* _LINUX_STATIC_CALL_TYPES_H */
