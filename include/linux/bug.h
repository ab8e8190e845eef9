/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_BUG_H
#define _LINUX_BUG_H

#include <linux/compiler.h>
#include <linux/types.h>

/*
 * __warn() prints "WARNING: CPU: n at <place>", the message if any and a
 * backtrace, then returns: the kernel carries on. The place is
 * "file:line function+off/len" for the WARN macros, where all three are the
 * WARN itself; with a NULL file it is "caller+off/len" alone, for an API
 * that reports its caller's misuse (the file and line would be the API's
 * own, which belong to neither). nr_warnings counts them so that tests can
 * check that a misuse warned exactly once (printk_log_contains() what it
 * said).
 */
void __warn(const char *file, int line, unsigned long caller, const char *fmt,
	    ...) __printf(4, 5) __cold;
void __noreturn __bug(const char *file, int line, const char *cond) __cold;
extern unsigned long nr_warnings;

#define WARN(cond, fmt...)                                                  \
	({                                                                  \
		bool __ret_warn = !!(cond);                                 \
		if (unlikely(__ret_warn))                                   \
			__warn(__FILE__, __LINE__, _THIS_IP_, fmt);         \
		unlikely(__ret_warn);                                       \
	})

#define WARN_ON(cond)                                                       \
	({                                                                  \
		bool __ret_warn_on = !!(cond);                              \
		if (unlikely(__ret_warn_on))                                \
			__warn(__FILE__, __LINE__, _THIS_IP_, "%s\n",        \
			       "WARN_ON(" #cond ")");                       \
		unlikely(__ret_warn_on);                                    \
	})

#define WARN_ONCE(cond, fmt...)                                             \
	({                                                                  \
		static bool __section(".data.once") __warned;               \
		bool __ret_warn_once = !!(cond);                            \
		if (unlikely(__ret_warn_once && !__warned)) {               \
			__warned = true;                                    \
			__warn(__FILE__, __LINE__, _THIS_IP_, fmt);         \
		}                                                           \
		unlikely(__ret_warn_once);                                  \
	})

#define WARN_ON_ONCE(cond) WARN_ONCE(cond, "%s\n", "WARN_ON_ONCE(" #cond ")")

#define BUG() __bug(__FILE__, __LINE__, NULL)
#define BUG_ON(cond)                                                        \
	do {                                                                \
		if (unlikely(cond))                                         \
			__bug(__FILE__, __LINE__, #cond);                   \
	} while (0)

#define BUILD_BUG_ON_MSG(cond, msg) _Static_assert(!(cond), msg)
#define BUILD_BUG_ON(cond) BUILD_BUG_ON_MSG(cond, "BUILD_BUG_ON failed: " #cond)

#endif /* _LINUX_BUG_H */
