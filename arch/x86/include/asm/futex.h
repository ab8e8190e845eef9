/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_FUTEX_H
#define _ASM_X86_FUTEX_H

#include <linux/types.h>
#include <linux/uaccess.h>
#include <asm/extable.h>

/*
 * A locked cmpxchg on the user u32 at uaddr (a user address, checked by
 * the caller): *cur gets the value it found (new was stored if that is
 * old). 0, or -EFAULT if the page is not there or not writable (the
 * exception table resumes at the return).
 */
static inline int arch_futex_cmpxchg_user(u32 __user *uaddr, u32 old, u32 new,
					  u32 *cur)
{
	int ret = 0;

	asm volatile("1:	lock cmpxchgl %[new], %[mem]\n"
		     "	jmp 3f\n"
		     "2:	movl $-14, %[ret]\n"
		     "3:\n" _ASM_EXTABLE(1b, 2b)
		     : [ret] "+r"(ret), "+a"(old), [mem] "+m"(*(u32 *)uaddr)
		     : [new] "r"(new)
		     : "memory", "cc");
	*cur = old;
	return ret;
}

#endif /* _ASM_X86_FUTEX_H */
