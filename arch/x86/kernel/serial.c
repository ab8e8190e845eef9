// SPDX-License-Identifier: GPL-2.0
/*
 * The console: a 16550 UART on COM1, polled, 8N1. Input is polled too
 * (serial_getc(), the shell's reader thread): there is no IOAPIC to route
 * the UART's interrupt.
 */
#include <linux/kernel.h>
#include <linux/init.h>
#include <asm/io.h>
#include <asm/serial.h>

#define COM1 0x3f8
#define UART_THR 0 /* transmit holding register */
#define UART_IER 1 /* interrupt enable */
#define UART_DLL 0 /* divisor latch, low byte (DLAB set) */
#define UART_DLM 1 /* divisor latch, high byte (DLAB set) */
#define UART_FCR 2 /* FIFO control (write) */
#define UART_IIR 2 /* interrupt identification (read) */
#define UART_IIR_FIFO 0xc0 /* the FIFOs are on */
#define UART_LCR 3 /* line control */
#define UART_MCR 4 /* modem control */
#define UART_LSR 5 /* line status */
#define UART_RBR 0 /* receive buffer (DLAB clear) */
#define UART_LSR_DR 0x01 /* a byte is waiting in RBR */
#define UART_LSR_THRE 0x20
#define UART_LCR_DLAB 0x80
#define UART_LCR_8N1 0x03

void __init serial_init(void)
{
	unsigned int div = 115200 / CONFIG_EARLY_SERIAL_BAUD;

	outb(0, COM1 + UART_IER);
	outb(UART_LCR_DLAB, COM1 + UART_LCR);
	outb(div & 0xff, COM1 + UART_DLL);
	outb(div >> 8, COM1 + UART_DLM);
	outb(UART_LCR_8N1, COM1 + UART_LCR);
	/*
	 * Switching the FIFOs on or off resets them, and QEMU hands piped
	 * input to the UART from the start: keep the mode found (IIR bits
	 * 7:6 say whether they are on) and clear only the transmitter's.
	 * Under QEMU they are off: one byte at a time, QEMU holds the rest.
	 */
	if ((inb(COM1 + UART_IIR) & UART_IIR_FIFO) == UART_IIR_FIFO)
		outb(0xc5, COM1 + UART_FCR);
	outb(0x03, COM1 + UART_MCR); /* DTR | RTS */
}

static void serial_putc(char c)
{
	while (!(inb(COM1 + UART_LSR) & UART_LSR_THRE))
		;
	outb(c, COM1 + UART_THR);
}

void serial_write(const char *s, unsigned long len)
{
	while (len--) {
		if (*s == '\n')
			serial_putc('\r');
		serial_putc(*s++);
	}
}

int serial_getc(void)
{
	if (!(inb(COM1 + UART_LSR) & UART_LSR_DR))
		return -1;
	return inb(COM1 + UART_RBR);
}
