// SPDX-License-Identifier: GPL-2.0
/*
 * The console's pure parts besides the editor: splitting a line into
 * commands and words, and tab completion. No I/O, no locks.
 */
#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/shell.h>
#include <linux/string.h>

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * Copies one word from *src to *dst (dst never passes src: the copy
 * shrinks), stopping at a blank, ';' or the end outside quotes.
 */
static int split_word(char **src, char **dst)
{
	char *s = *src, *d = *dst;
	bool quoted = false;

	for (; *s && (quoted || (!is_blank(*s) && *s != ';')); s++) {
		if (*s == '"') {
			quoted = !quoted;
		} else if (*s == '\\') {
			if (!*++s)
				return -EINVAL;
			*d++ = *s;
		} else {
			*d++ = *s;
		}
	}
	*src = s;
	*dst = d;
	return quoted ? -EINVAL : 0;
}

int shell_split(char **line, char **argv, int max)
{
	char *s = *line, *d, end = 0;
	int argc = 0;

	for (;;) {
		while (is_blank(*s))
			s++;
		if (!*s || *s == ';')
			break;
		d = s;
		if (argc < max)
			argv[argc] = d;
		if (argc == max || split_word(&s, &d)) {
			*line = NULL;
			return argc == max ? -E2BIG : -EINVAL;
		}
		argc++;
		end = *s; /* read before the NUL below may overwrite it */
		*d = '\0';
		if (end == ';')
			break;
		if (end)
			s++;
	}
	*line = *s || end == ';' ? s + 1 : NULL;
	return argc;
}

void shell_complete_begin(struct shell_completion *c,
			  const struct shell_editor *ed)
{
	const char *l = ed->line;
	unsigned int start = ed->cursor, cmd = ed->cursor, i, n;

	memset(c, 0, sizeof(*c));
	while (start && !is_blank(l[start - 1]) && l[start - 1] != ';')
		start--;
	c->word_len = ed->cursor - start;
	memcpy(c->word, l + start, c->word_len);
	while (cmd && l[cmd - 1] != ';')
		cmd--;
	/* Which word of its command: count the words before it. */
	for (i = cmd; i < start; i++) {
		if (is_blank(l[i]) || (i > cmd && !is_blank(l[i - 1])))
			continue;
		if (!c->argi++) {
			for (n = 0; i + n < start && !is_blank(l[i + n]); n++)
				;
			memcpy(c->first_word, l + i, n);
		}
	}
}

void shell_complete_add(struct shell_completion *c, const char *name)
{
	unsigned int n;

	if (strncmp(name, c->word, c->word_len))
		return;
	if (c->matches < SHELL_COMPLETE_LIST)
		strscpy(c->list[c->matches], name, sizeof(c->list[0]));
	if (!c->matches++) {
		strscpy(c->common, name, sizeof(c->common));
		return;
	}
	for (n = 0; c->common[n] && c->common[n] == name[n]; n++)
		;
	c->common[n] = '\0';
}

unsigned int shell_complete_apply(struct shell_completion *c,
				  struct shell_editor *ed)
{
	unsigned int have = c->word_len, want = strlen(c->common);

	if (!c->matches)
		return 0;
	if (want > have)
		shell_edit_insert(ed, c->common + have);
	if (c->matches == 1 && ed->line[ed->cursor] != ' ')
		shell_edit_insert(ed, " ");
	if (want > have)
		return 1; /* progress: no list needed */
	return c->matches;
}
