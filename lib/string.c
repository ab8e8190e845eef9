// SPDX-License-Identifier: GPL-2.0
/*
 * The C string and memory functions the kernel uses, plus strscpy() and
 * glob_match().
 *
 * gcc recognises byte loops as memset/memcpy/memmove patterns and turns them
 * into calls to those very functions, which would recurse here; memset() and
 * memcpy() therefore use the string instructions, and the loops that remain
 * are built with that transformation switched off.
 */

#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/string.h>
#include <linux/types.h>

#define __no_loop_patterns \
	__attribute__((__optimize__("no-tree-loop-distribute-patterns")))

void *memset(void *s, int c, size_t n)
{
	void *d = s;

	asm volatile("rep stosb"
		     : "+D"(d), "+c"(n)
		     : "a"(c)
		     : "memory");
	return s;
}
EXPORT_SYMBOL(memset);

void *memcpy(void *dst, const void *src, size_t n)
{
	void *d = dst;

	asm volatile("rep movsb"
		     : "+D"(d), "+S"(src), "+c"(n)
		     :
		     : "memory");
	return dst;
}
EXPORT_SYMBOL(memcpy);

/*
 * A forward copy is safe whenever dst is below src, even if the areas
 * overlap, since "rep movsb" moves one byte after the other upwards.
 */
__no_loop_patterns void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d <= s || d >= s + n)
		return memcpy(dst, src, n);

	while (n--)
		d[n] = s[n];
	return dst;
}
EXPORT_SYMBOL(memmove);

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *p = a, *q = b;

	for (; n; n--, p++, q++) {
		if (*p != *q)
			return *p < *q ? -1 : 1;
	}
	return 0;
}
EXPORT_SYMBOL(memcmp);

size_t strlen(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return p - s;
}
EXPORT_SYMBOL(strlen);

size_t strnlen(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}
EXPORT_SYMBOL(strnlen);

int strcmp(const char *a, const char *b)
{
	unsigned char c, d;

	do {
		c = *a++;
		d = *b++;
		if (c != d)
			return c < d ? -1 : 1;
	} while (c);
	return 0;
}
EXPORT_SYMBOL(strcmp);

int strncmp(const char *a, const char *b, size_t n)
{
	unsigned char c, d;

	for (; n; n--) {
		c = *a++;
		d = *b++;
		if (c != d)
			return c < d ? -1 : 1;
		if (!c)
			break;
	}
	return 0;
}
EXPORT_SYMBOL(strncmp);

char *strchr(const char *s, int c)
{
	for (; *s != (char)c; s++) {
		if (!*s)
			return NULL;
	}
	return (char *)s;
}
EXPORT_SYMBOL(strchr);

char *strrchr(const char *s, int c)
{
	const char *last = NULL;

	do {
		if (*s == (char)c)
			last = s;
	} while (*s++);
	return (char *)last;
}
EXPORT_SYMBOL(strrchr);

/*
 * Copies src into dst of size bytes, NUL-terminated whenever size > 0.
 * Returns the number of characters copied (without the NUL), or -E2BIG
 * when src did not fit and was truncated.
 */
__no_loop_patterns size_t strscpy(char *dst, const char *src, size_t size)
{
	size_t n;

	if (!size)
		return (size_t)-E2BIG;

	for (n = 0; n < size - 1 && src[n]; n++)
		dst[n] = src[n];
	dst[n] = '\0';
	return src[n] ? (size_t)-E2BIG : n;
}
EXPORT_SYMBOL(strscpy);

char *strstr(const char *haystack, const char *needle)
{
	size_t len = strlen(needle);

	for (; *haystack; haystack++) {
		if (!strncmp(haystack, needle, len))
			return (char *)haystack;
	}
	return len ? NULL : (char *)haystack;
}
EXPORT_SYMBOL(strstr);

/* The pattern character at p, or '\0' at its end. */
static unsigned char glob_at(const char *p, const char *end)
{
	return p < end ? *p : '\0';
}

/*
 * Matches c against the class that starts just after a '['.  Returns the
 * position after the closing ']' and sets *match, or NULL when the class is
 * not closed, in which case the '[' is an ordinary character.
 */
static const char *glob_class(const char *pat, const char *end,
			      unsigned char c, bool *match)
{
	bool invert = glob_at(pat, end) == '!';
	unsigned char lo, hi;

	*match = false;
	if (invert)
		pat++;
	/* A ']' right after the '[' or "[!" belongs to the class. */
	do {
		lo = glob_at(pat++, end);
		if (!lo)
			return NULL;
		hi = lo;
		if (glob_at(pat, end) == '-' && glob_at(pat + 1, end) &&
		    glob_at(pat + 1, end) != ']') {
			hi = pat[1];
			pat += 2;
		}
		if (c >= lo && c <= hi)
			*match = true;
	} while (glob_at(pat, end) != ']');

	*match ^= invert;
	return pat + 1;
}

/*
 * Matches one character of the string against the pattern element at *pat
 * (anything but '*') and on success moves *pat past that element.
 */
static bool glob_one(const char **pat, const char *end, unsigned char c)
{
	const char *p = *pat;
	const char *next;
	bool match;

	switch (glob_at(p, end)) {
	case '\0':
		return false;
	case '?':
		*pat = p + 1;
		return true;
	case '[':
		next = glob_class(p + 1, end, c, &match);
		if (next) {
			*pat = next;
			return match;
		}
		break;
	case '\\':
		if (glob_at(p + 1, end))
			p++;
		break;
	}
	*pat = p + 1;
	return (unsigned char)*p == c;
}

/**
 * glob_match_len - match a whole string against a shell-style pattern
 * @pat: pattern: '*' matches any run of characters, '?' any one, "[a-z]"
 *	 and "[!abc]" one character of or not of a class; '\\' escapes the
 *	 next character; a '[' with no closing ']' is an ordinary character
 * @len: the pattern's length: it ends there (or at a NUL before)
 * @str: the string
 *
 * '/' and a leading '.' are not special.  On a mismatch the match goes back
 * to the last '*' and lets it take one more character, so no recursion is
 * needed: an earlier '*' never has to take more once a later one matched.
 */
bool glob_match_len(const char *pat, size_t len, const char *str)
{
	const char *star_pat = NULL, *star_str = NULL, *end = pat + len;

	for (;;) {
		if (glob_at(pat, end) == '*') {
			star_pat = ++pat;
			star_str = str;
			continue;
		}
		if (!*str)
			return !glob_at(pat, end);
		if (glob_one(&pat, end, *str)) {
			str++;
			continue;
		}
		if (!star_pat)
			return false;
		pat = star_pat;
		str = ++star_str;
	}
}
EXPORT_SYMBOL_GPL(glob_match_len);

/* glob_match - glob_match_len() with the whole of @pat */
bool glob_match(const char *pat, const char *str)
{
	return glob_match_len(pat, strlen(pat), str);
}
EXPORT_SYMBOL_GPL(glob_match);
