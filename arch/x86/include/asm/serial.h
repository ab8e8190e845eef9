/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_SERIAL_H
#define _ASM_X86_SERIAL_H

void serial_init(void);
void serial_write(const char *s, unsigned long len);
/* The next byte received, or -1 if none is waiting. Never blocks. */
int serial_getc(void);

#endif /* _ASM_X86_SERIAL_H */
