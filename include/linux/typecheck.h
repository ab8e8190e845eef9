/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_TYPECHECK_H
#define _LINUX_TYPECHECK_H

#include <linux/compiler.h>

/*
 * typecheck(type, x): 1, and a compile-time error unless x has the type
 * type (qualifiers aside). x is not evaluated. For macros that must not be
 * handed a narrower or signed value, such as time_after().
 */
#define typecheck(type, x)                                             \
	({                                                             \
		_Static_assert(__same_type(type, typeof(x)),           \
			       "typecheck: expected " #x " to be " #type); \
		1;                                                     \
	})

#endif /* _LINUX_TYPECHECK_H */
