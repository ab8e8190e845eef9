// SPDX-License-Identifier: GPL-2.0
/*
 * vsnprintf() and friends, and the kstrto*() number parsers.
 *
 * Integer conversions follow C99.  There is no floating point.  %p prints
 * the raw pointer ("0x" and 16 hex digits) and takes these extensions:
 *
 *	%pS	symbol+offset/size, from sprint_symbol()
 *	%pB	the same for a return address, from sprint_backtrace()
 *	%ps	symbol name, from sprint_symbol_no_offset()
 *	%*ph	hex dump of up to 64 bytes, separated by ' ' (%*phC ':',
 *		%*phD '-', %*phN nothing); the field width is the length
 *	%pa	the phys_addr_t that the pointer points to
 *	%px	the raw pointer, as plain %p
 *
 * As in Linux, all letters and digits that follow %p belong to it, so an
 * unknown extension prints the raw pointer and vanishes.  An unknown
 * conversion ends the output: the arguments after it cannot be found.
 */

#include <linux/export.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/string.h>

#define ZEROPAD 0x01	/* pad with '0' up to the width */
#define SIGN 0x02	/* signed conversion */
#define PLUS 0x04	/* show '+' */
#define SPACE 0x08	/* ' ' in place of '+' */
#define LEFT 0x10	/* pad on the right */
#define SMALL 0x20	/* lower-case hex */
#define SPECIAL 0x40	/* '#': 0 or 0x prefix */

#define HEX_DUMP_MAX 64
#define SYMBOL_BUF_LEN 256

enum length {
	LEN_INT,
	LEN_HH,
	LEN_H,
	LEN_L,
	LEN_LL,
	LEN_Z,
	LEN_T,
};

struct spec {
	unsigned int flags;
	int width;		/* -1 when not given */
	int precision;		/* -1 when not given */
	unsigned int base;
	enum length length;
};

/* The output: bytes past size are counted but not stored. */
struct out {
	char *buf;
	size_t size;
	size_t pos;
};

static const char hex_lower[] = "0123456789abcdef";
static const char hex_upper[] = "0123456789ABCDEF";

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_alnum(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static void put_char(struct out *o, char c)
{
	if (o->pos < o->size)
		o->buf[o->pos] = c;
	o->pos++;
}

static void put_chars(struct out *o, char c, int n)
{
	while (n-- > 0)
		put_char(o, c);
}

static void put_mem(struct out *o, const char *s, size_t len)
{
	while (len--)
		put_char(o, *s++);
}

/* Writes len bytes of s padded with spaces to the field width. */
static void put_field(struct out *o, const char *s, size_t len,
		      const struct spec *spec)
{
	int pad = spec->width > (int)len ? spec->width - (int)len : 0;

	if (!(spec->flags & LEFT))
		put_chars(o, ' ', pad);
	put_mem(o, s, len);
	if (spec->flags & LEFT)
		put_chars(o, ' ', pad);
}

/* Writes num's digits into the bytes just before end; returns how many. */
static int format_digits(char *end, unsigned long long num,
			 const struct spec *spec)
{
	const char *digits = spec->flags & SMALL ? hex_lower : hex_upper;
	int n = 0;

	/* C99: with a precision of 0 the value 0 has no digits at all. */
	if (!num && !spec->precision)
		return 0;
	do {
		*--end = digits[num % spec->base];
		num /= spec->base;
		n++;
	} while (num);
	return n;
}

static void format_number(struct out *o, unsigned long long num,
			  bool negative, const struct spec *spec)
{
	char tmp[24];	/* 22 octal digits for 64 bits */
	int ndigits = format_digits(tmp + sizeof(tmp), num, spec);
	int nzeros = spec->precision > ndigits ? spec->precision - ndigits : 0;
	unsigned int flags = spec->flags;
	const char *prefix = "";
	int pad;

	if (flags & SIGN) {
		if (negative)
			prefix = "-";
		else if (flags & PLUS)
			prefix = "+";
		else if (flags & SPACE)
			prefix = " ";
	} else if (flags & SPECIAL) {
		if (spec->base == 8 && !nzeros &&
		    (!ndigits || tmp[sizeof(tmp) - ndigits] != '0'))
			nzeros = 1;
		else if (spec->base == 16 && num)
			prefix = flags & SMALL ? "0x" : "0X";
	}

	pad = spec->width - (int)strlen(prefix) - nzeros - ndigits;
	if ((flags & ZEROPAD) && !(flags & LEFT) && spec->precision < 0) {
		nzeros += pad > 0 ? pad : 0;
		pad = 0;
	}
	if (!(flags & LEFT))
		put_chars(o, ' ', pad);
	put_mem(o, prefix, strlen(prefix));
	put_chars(o, '0', nzeros);
	put_mem(o, tmp + sizeof(tmp) - ndigits, ndigits);
	if (flags & LEFT)
		put_chars(o, ' ', pad);
}

static unsigned long long fetch_unsigned(enum length length, va_list *ap)
{
	switch (length) {
	case LEN_HH:
		return (unsigned char)va_arg(*ap, unsigned int);
	case LEN_H:
		return (unsigned short)va_arg(*ap, unsigned int);
	case LEN_L:
		return va_arg(*ap, unsigned long);
	case LEN_LL:
		return va_arg(*ap, unsigned long long);
	case LEN_Z:
		return va_arg(*ap, size_t);
	case LEN_T:
		return (unsigned long long)va_arg(*ap, ptrdiff_t);
	default:
		return va_arg(*ap, unsigned int);
	}
}

static long long fetch_signed(enum length length, va_list *ap)
{
	switch (length) {
	case LEN_HH:
		return (signed char)va_arg(*ap, int);
	case LEN_H:
		return (short)va_arg(*ap, int);
	case LEN_L:
		return va_arg(*ap, long);
	case LEN_LL:
		return va_arg(*ap, long long);
	case LEN_Z:
		return va_arg(*ap, ssize_t);
	case LEN_T:
		return va_arg(*ap, ptrdiff_t);
	default:
		return va_arg(*ap, int);
	}
}

static void format_integer(struct out *o, const struct spec *spec,
			   va_list *ap)
{
	long long v;

	if (!(spec->flags & SIGN)) {
		format_number(o, fetch_unsigned(spec->length, ap), false, spec);
		return;
	}
	v = fetch_signed(spec->length, ap);
	/* Negate in unsigned arithmetic, where LLONG_MIN has a positive. */
	if (v < 0)
		format_number(o, -(unsigned long long)v, true, spec);
	else
		format_number(o, v, false, spec);
}

static void format_string(struct out *o, const char *s,
			  const struct spec *spec)
{
	size_t max = spec->precision >= 0 ? spec->precision : (size_t)-1;

	if (!s)
		s = "(null)";
	put_field(o, s, strnlen(s, max), spec);
}

/* "0x" and 16 hex digits, padded to the field width. */
static void format_hex64(struct out *o, u64 v, const struct spec *spec)
{
	char tmp[2 + 16];
	int i;

	tmp[0] = '0';
	tmp[1] = 'x';
	for (i = 17; i >= 2; i--, v >>= 4)
		tmp[i] = hex_lower[v & 0xf];
	put_field(o, tmp, sizeof(tmp), spec);
}

/* %*ph: the field width is the number of bytes, not a width. */
static void format_hex_dump(struct out *o, const u8 *p, char kind,
			    const struct spec *spec)
{
	char sep = kind == 'C' ? ':' : kind == 'D' ? '-' : ' ';
	int len = spec->width < 0 ? 1 : min(spec->width, HEX_DUMP_MAX);
	int i;

	if (!p) {
		put_mem(o, "(null)", 6);
		return;
	}
	for (i = 0; i < len; i++) {
		if (i && kind != 'N')
			put_char(o, sep);
		put_char(o, hex_lower[p[i] >> 4]);
		put_char(o, hex_lower[p[i] & 0xf]);
	}
}

static void format_symbol(struct out *o, void *ptr, char kind,
			  const struct spec *spec)
{
	char sym[SYMBOL_BUF_LEN];
	unsigned long addr = (unsigned long)ptr;

	/* Trust the string rather than the returned length. */
	sym[0] = '\0';
	if (kind == 's')
		sprint_symbol_no_offset(sym, sizeof(sym), addr);
	else if (kind == 'B')
		sprint_backtrace(sym, sizeof(sym), addr);
	else
		sprint_symbol(sym, sizeof(sym), addr);
	put_field(o, sym, strnlen(sym, sizeof(sym) - 1), spec);
}

/*
 * fmt points just after the 'p'; returns the position after the
 * extension letters, which are all consumed, known or not.
 */
static const char *format_pointer(struct out *o, const char *fmt, void *ptr,
				  const struct spec *spec)
{
	switch (*fmt) {
	case 'S':
	case 's':
	case 'B':
		format_symbol(o, ptr, *fmt, spec);
		break;
	case 'h':
		format_hex_dump(o, ptr, fmt[1], spec);
		break;
	case 'a':
		if (ptr)
			format_hex64(o, *(phys_addr_t *)ptr, spec);
		else
			put_field(o, "(null)", 6, spec);
		break;
	default:
		format_hex64(o, (unsigned long)ptr, spec);
		break;
	}
	while (is_alnum(*fmt))
		fmt++;
	return fmt;
}

/* Reads a decimal number, saturating well below INT_MAX. */
static const char *parse_decimal(const char *fmt, int *res)
{
	int n = 0;

	for (; is_digit(*fmt); fmt++) {
		if (n < INT_MAX / 100)
			n = n * 10 + (*fmt - '0');
	}
	*res = n;
	return fmt;
}

static const char *parse_flags(const char *fmt, struct spec *spec)
{
	for (;; fmt++) {
		switch (*fmt) {
		case '-':
			spec->flags |= LEFT;
			continue;
		case '+':
			spec->flags |= PLUS;
			continue;
		case ' ':
			spec->flags |= SPACE;
			continue;
		case '#':
			spec->flags |= SPECIAL;
			continue;
		case '0':
			spec->flags |= ZEROPAD;
			continue;
		}
		return fmt;
	}
}

static const char *parse_width(const char *fmt, struct spec *spec,
			       va_list *ap)
{
	if (*fmt == '*') {
		spec->width = va_arg(*ap, int);
		if (spec->width < 0) {
			spec->flags |= LEFT;
			spec->width = spec->width == INT_MIN ? INT_MAX :
							       -spec->width;
		}
		return fmt + 1;
	}
	if (is_digit(*fmt))
		return parse_decimal(fmt, &spec->width);
	return fmt;
}

static const char *parse_precision(const char *fmt, struct spec *spec,
				   va_list *ap)
{
	if (*fmt != '.')
		return fmt;
	fmt++;
	if (*fmt == '*') {
		spec->precision = va_arg(*ap, int);
		if (spec->precision < 0)
			spec->precision = -1;
		return fmt + 1;
	}
	return parse_decimal(fmt, &spec->precision);
}

static const char *parse_length(const char *fmt, struct spec *spec)
{
	switch (*fmt) {
	case 'h':
		if (fmt[1] == 'h') {
			spec->length = LEN_HH;
			return fmt + 2;
		}
		spec->length = LEN_H;
		return fmt + 1;
	case 'l':
		if (fmt[1] == 'l') {
			spec->length = LEN_LL;
			return fmt + 2;
		}
		spec->length = LEN_L;
		return fmt + 1;
	case 'j':
	case 'L':
	case 'q':
		spec->length = LEN_LL;
		return fmt + 1;
	case 'z':
		spec->length = LEN_Z;
		return fmt + 1;
	case 't':
		spec->length = LEN_T;
		return fmt + 1;
	}
	return fmt;
}

/* Sets base and flags for an integer conversion; false if c is not one. */
static bool integer_conversion(char c, struct spec *spec)
{
	switch (c) {
	case 'd':
	case 'i':
		spec->flags |= SIGN;
		spec->base = 10;
		return true;
	case 'u':
		spec->base = 10;
		return true;
	case 'o':
		spec->base = 8;
		return true;
	case 'x':
		spec->flags |= SMALL;
		spec->base = 16;
		return true;
	case 'X':
		spec->base = 16;
		return true;
	}
	return false;
}

/*
 * Formats the conversion that fmt (just after its '%') starts.  Returns the
 * position after it, or NULL to end the output.
 */
static const char *format_one(struct out *o, const char *fmt, va_list *ap)
{
	struct spec spec = { .width = -1, .precision = -1 };
	const char *start = fmt - 1;
	char c;

	fmt = parse_flags(fmt, &spec);
	fmt = parse_width(fmt, &spec, ap);
	fmt = parse_precision(fmt, &spec, ap);
	fmt = parse_length(fmt, &spec);

	switch (c = *fmt++) {
	case '%':
		put_char(o, '%');
		return fmt;
	case 'c':
		c = va_arg(*ap, int);
		put_field(o, &c, 1, &spec);
		return fmt;
	case 's':
		format_string(o, va_arg(*ap, const char *), &spec);
		return fmt;
	case 'p':
		return format_pointer(o, fmt, va_arg(*ap, void *), &spec);
	}
	if (integer_conversion(c, &spec)) {
		format_integer(o, &spec, ap);
		return fmt;
	}
	/* Unknown: show it as it was written, unless fmt ended early. */
	if (c)
		put_mem(o, start, fmt - start);
	return NULL;
}

/**
 * vsnprintf - format a string into a buffer
 * @buf: the buffer; may be NULL when @size is 0
 * @size: its size; the string is NUL-terminated whenever @size > 0
 * @fmt: the format; see the top of this file
 * @args: the arguments
 *
 * Returns the length the whole string would have had (without the NUL),
 * which is @size or more when it was truncated.
 */
int vsnprintf(char *buf, size_t size, const char *fmt, va_list args)
{
	struct out o = { .buf = buf, .size = size };
	va_list ap;

	va_copy(ap, args);
	while (fmt && *fmt) {
		if (*fmt == '%')
			fmt = format_one(&o, fmt + 1, &ap);
		else
			put_char(&o, *fmt++);
	}
	va_end(ap);

	if (size)
		buf[min(o.pos, size - 1)] = '\0';
	return min_t(size_t, o.pos, INT_MAX);
}
EXPORT_SYMBOL(vsnprintf);

/* As vsnprintf(), but returns the length actually written. */
int vscnprintf(char *buf, size_t size, const char *fmt, va_list args)
{
	int len = vsnprintf(buf, size, fmt, args);

	if (len < size)
		return len;
	return size ? size - 1 : 0;
}
EXPORT_SYMBOL(vscnprintf);

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list args;
	int len;

	va_start(args, fmt);
	len = vsnprintf(buf, size, fmt, args);
	va_end(args);
	return len;
}
EXPORT_SYMBOL(snprintf);

int scnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list args;
	int len;

	va_start(args, fmt);
	len = vscnprintf(buf, size, fmt, args);
	va_end(args);
	return len;
}
EXPORT_SYMBOL(scnprintf);

/* Unbounded: the caller vouches that buf is large enough. */
int sprintf(char *buf, const char *fmt, ...)
{
	va_list args;
	int len;

	va_start(args, fmt);
	len = vsnprintf(buf, INT_MAX, fmt, args);
	va_end(args);
	return len;
}
EXPORT_SYMBOL(sprintf);

/* The value of digit c in any base up to 36, or 36 if it is no digit. */
static unsigned int digit_value(char c)
{
	if (is_digit(c))
		return c - '0';
	c |= 0x20;	/* lower case */
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 10;
	return 36;
}

/*
 * Settles base 0 by the prefix ("0x" and a hex digit: 16, "0": 8, else
 * 10) and skips a "0x" in base 16.  Returns where the digits start.
 */
static const char *parse_radix(const char *s, unsigned int *base)
{
	bool hex = s[0] == '0' && (s[1] | 0x20) == 'x';

	if (!*base) {
		if (hex && digit_value(s[2]) < 16)
			*base = 16;
		else
			*base = s[0] == '0' ? 8 : 10;
	}
	if (*base == 16 && hex)
		s += 2;
	return s;
}

/*
 * Reads digits of base into *res (which wraps on overflow, and *overflow
 * is set).  Returns the number of digits read.
 */
static size_t parse_digits(const char *s, unsigned int base,
			   unsigned long long *res, bool *overflow)
{
	unsigned long long v = 0;
	unsigned int d;
	size_t n;

	*overflow = false;
	for (n = 0; (d = digit_value(s[n])) < base; n++) {
		if (v > (ULLONG_MAX - d) / base)
			*overflow = true;
		v = v * base + d;
	}
	*res = v;
	return n;
}

/* The whole of s, bar one trailing newline, must be digits. */
static int parse_ull(const char *s, unsigned int base,
		     unsigned long long *res)
{
	unsigned long long v;
	bool overflow;
	size_t n;

	if (base == 1 || base > 16)
		return -EINVAL;
	s = parse_radix(s, &base);
	n = parse_digits(s, base, &v, &overflow);
	if (overflow)
		return -ERANGE;
	if (!n)
		return -EINVAL;
	s += n;
	if (*s == '\n')
		s++;
	if (*s)
		return -EINVAL;
	*res = v;
	return 0;
}

/**
 * kstrtoul - convert a string to an unsigned long
 * @s: the string: an optional '+', digits, an optional newline
 * @base: 2 to 16, or 0 to tell by a "0x" or "0" prefix
 * @res: where the value goes; left alone on error
 *
 * Returns 0, -EINVAL if @s is no number, or -ERANGE if it does not fit.
 */
int kstrtoul(const char *s, unsigned int base, unsigned long *res)
{
	unsigned long long v;
	int err;

	if (*s == '+')
		s++;
	err = parse_ull(s, base, &v);
	if (err)
		return err;
	if (v > ULONG_MAX)
		return -ERANGE;
	*res = v;
	return 0;
}
EXPORT_SYMBOL(kstrtoul);

/* As kstrtoul(), but for an int, and a leading '-' is allowed too. */
int kstrtoint(const char *s, unsigned int base, int *res)
{
	unsigned long long v;
	bool negative = *s == '-';
	int err;

	if (*s == '-' || *s == '+')
		s++;
	err = parse_ull(s, base, &v);
	if (err)
		return err;
	if (v > (negative ? -(unsigned long long)INT_MIN : INT_MAX))
		return -ERANGE;
	*res = negative ? (int)-v : (int)v;
	return 0;
}
EXPORT_SYMBOL(kstrtoint);

/*
 * Reads as many digits as there are, without any check, and points *endp
 * after them.  Prefer kstrtoul().
 */
unsigned long simple_strtoul(const char *cp, char **endp, unsigned int base)
{
	unsigned long long v;
	bool overflow;

	cp = parse_radix(cp, &base);
	cp += parse_digits(cp, base, &v, &overflow);
	if (endp)
		*endp = (char *)cp;
	return v;
}
EXPORT_SYMBOL(simple_strtoul);
