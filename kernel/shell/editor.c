// SPDX-License-Identifier: GPL-2.0
/*
 * The console's line editor: bytes in, a line out, and what the terminal
 * must see. Pure: no I/O, no locks, so that KUnit feeds it byte strings.
 *
 * Keys: printable bytes insert at the cursor; backspace (DEL or ^H) and
 * ESC [ 3 ~ delete; ^U kills the line before the cursor; left/right
 * (ESC [ D / C, or ESC O D / C), home/end (ESC [ H / F, ESC [ 1 ~ / 4 ~,
 * ^A / ^E); up/down walk the history; ^C drops the line, and a second
 * ^C right after it asks the caller to end the machine; tab asks the
 * caller to complete; CR or LF ends the line (LF right after a CR is
 * skipped, so CR LF is one line), even inside an escape sequence. OSC,
 * DCS, SOS, PM and APC strings are skipped up to BEL or ESC \\. A line
 * longer than SHELL_LINE_MAX - 1 bytes is refused, with one line, when it
 * ends. Anything else is ignored.
 */
#include <linux/kernel.h>
#include <linux/shell.h>
#include <linux/string.h>

#define CTRL(c) ((c)&0x1f)
#define ESC 0x1b
/* ESC_STRING: OSC, DCS, SOS, PM or APC, up to BEL or ESC \\ (ST). */
enum { ESC_NONE, ESC_SEEN, ESC_CSI, ESC_STRING, ESC_STRING_ESC };

static void out_str(struct shell_editor *ed, const char *s, unsigned int n)
{
	n = min(n, (unsigned int)sizeof(ed->out) - ed->out_len);
	memcpy(ed->out + ed->out_len, s, n);
	ed->out_len += n;
}

static void out_fmt(struct shell_editor *ed, const char *fmt, unsigned int v)
{
	char buf[16];

	out_str(ed, buf, scnprintf(buf, sizeof(buf), fmt, v));
}

/* Redraws the whole line and puts the terminal's cursor at ours. */
static void redraw(struct shell_editor *ed)
{
	out_str(ed, "\r\x1b[K", 4);
	out_str(ed, ed->prompt, strlen(ed->prompt));
	out_str(ed, ed->line, ed->len);
	if (ed->len > ed->cursor)
		out_fmt(ed, "\x1b[%uD", ed->len - ed->cursor);
}

void shell_editor_reset(struct shell_editor *ed)
{
	ed->len = ed->cursor = 0;
	ed->line[0] = '\0';
	ed->esc = ESC_NONE;
	ed->hist_pos = 0;
	ed->too_long = false;
}

void shell_editor_init(struct shell_editor *ed, const char *prompt)
{
	memset(ed, 0, sizeof(*ed));
	ed->prompt = prompt;
	shell_editor_reset(ed);
}

void shell_edit_insert(struct shell_editor *ed, const char *s)
{
	unsigned int n =
		min((unsigned int)strlen(s), SHELL_LINE_MAX - 1 - ed->len);

	if (n < strlen(s))
		ed->too_long = true;

	memmove(ed->line + ed->cursor + n, ed->line + ed->cursor,
		ed->len - ed->cursor + 1);
	memcpy(ed->line + ed->cursor, s, n);
	ed->len += n;
	ed->cursor += n;
	if (ed->cursor == ed->len)
		out_str(ed, s, n);
	else
		redraw(ed);
}

/* Removes n bytes before the cursor. */
static void delete_before(struct shell_editor *ed, unsigned int n)
{
	n = min(n, ed->cursor);
	if (!n)
		return;
	memmove(ed->line + ed->cursor - n, ed->line + ed->cursor,
		ed->len - ed->cursor + 1);
	ed->cursor -= n;
	ed->len -= n;
	if (ed->cursor == ed->len && n == 1)
		out_str(ed, "\b \b", 3);
	else
		redraw(ed);
}

static void delete_at(struct shell_editor *ed)
{
	if (ed->cursor == ed->len)
		return;
	ed->cursor++;
	delete_before(ed, 1);
}

static void move_to(struct shell_editor *ed, unsigned int pos)
{
	if (pos < ed->cursor)
		out_fmt(ed, "\x1b[%uD", ed->cursor - pos);
	else if (pos > ed->cursor)
		out_fmt(ed, "\x1b[%uC", pos - ed->cursor);
	ed->cursor = pos;
}

void shell_history_add(struct shell_editor *ed, const char *line)
{
	unsigned int newest =
		(ed->hist_next + SHELL_HISTORY - 1) % SHELL_HISTORY;

	if (!*line || (ed->hist_len && !strcmp(ed->history[newest], line)))
		return;
	strscpy(ed->history[ed->hist_next], line, SHELL_LINE_MAX);
	ed->hist_next = (ed->hist_next + 1) % SHELL_HISTORY;
	if (ed->hist_len < SHELL_HISTORY)
		ed->hist_len++;
}

/* Shows history entry pos (0: the line being typed, saved meanwhile). */
static void history_show(struct shell_editor *ed, unsigned int pos)
{
	const char *s;

	if (pos > ed->hist_len || pos == ed->hist_pos)
		return;
	if (!ed->hist_pos)
		strscpy(ed->saved, ed->line, SHELL_LINE_MAX);
	ed->hist_pos = pos;
	s = pos ? ed->history[(ed->hist_next + SHELL_HISTORY - pos) %
			      SHELL_HISTORY] :
		  ed->saved;
	strscpy(ed->line, s, SHELL_LINE_MAX);
	ed->len = ed->cursor = strlen(ed->line);
	redraw(ed);
}

/* The final byte of ESC [ ... or ESC O ... */
static void escape_final(struct shell_editor *ed, u8 c)
{
	u8 p = ed->csi_param;

	if (c == 'A')
		history_show(ed, ed->hist_pos + 1);
	else if (c == 'B' && ed->hist_pos)
		history_show(ed, ed->hist_pos - 1);
	else if (c == 'C' && ed->cursor < ed->len)
		move_to(ed, ed->cursor + 1);
	else if (c == 'D' && ed->cursor)
		move_to(ed, ed->cursor - 1);
	else if (c == 'H' || (c == '~' && (p == 1 || p == 7)))
		move_to(ed, 0);
	else if (c == 'F' || (c == '~' && (p == 4 || p == 8)))
		move_to(ed, ed->len);
	else if (c == '~' && p == 3)
		delete_at(ed);
}

/* One byte of an escape sequence; parameters are digits and ';'. */
static void escape_byte(struct shell_editor *ed, u8 c)
{
	if (ed->esc == ESC_STRING || ed->esc == ESC_STRING_ESC) {
		if (c == 0x07 || (ed->esc == ESC_STRING_ESC && c == '\\'))
			ed->esc = ESC_NONE;
		else
			ed->esc = c == ESC ? ESC_STRING_ESC : ESC_STRING;
		return;
	}
	if (ed->esc == ESC_SEEN) {
		ed->esc = (c == '[' || c == 'O') ? ESC_CSI :
			  strchr("]PX^_", c)	 ? ESC_STRING :
						   ESC_NONE;
		ed->csi_param = 0;
		return;
	}
	if (c >= '0' && c <= '9') {
		ed->csi_param = min(ed->csi_param * 10 + (c - '0'), 99);
		return;
	}
	if (c == ';')
		return;
	ed->esc = ESC_NONE;
	if (c >= 0x40 && c <= 0x7e)
		escape_final(ed, c);
}

static enum shell_edit control_byte(struct shell_editor *ed, u8 c)
{
	switch (c) {
	case '\t':
		return SHELL_EDIT_COMPLETE;
	case 0x7f:
	case CTRL('H'):
		delete_before(ed, 1);
		break;
	case CTRL('U'):
		delete_before(ed, ed->cursor);
		break;
	case CTRL('A'):
		move_to(ed, 0);
		break;
	case CTRL('E'):
		move_to(ed, ed->len);
		break;
	case CTRL('C'):
		out_str(ed, "^C\n", 3);
		if (ed->last_intr)
			return SHELL_EDIT_QUIT;
		shell_editor_reset(ed);
		out_str(ed, ed->prompt, strlen(ed->prompt));
		ed->last_intr = true;
		return SHELL_EDIT_MORE;
	case ESC:
		ed->esc = ESC_SEEN;
		break;
	}
	return SHELL_EDIT_MORE;
}

/* A line that lost bytes is not run: it ends empty, with one line why. */
static void refuse_long_line(struct shell_editor *ed)
{
	static const char msg[] =
		"console: line longer than 255 bytes: not run\n";

	BUILD_BUG_ON(SHELL_LINE_MAX != 256);

	out_str(ed, msg, sizeof(msg) - 1);
	ed->len = ed->cursor = 0;
	ed->line[0] = '\0';
	ed->too_long = false;
}

enum shell_edit shell_edit_byte(struct shell_editor *ed, u8 c)
{
	bool after_cr = ed->last_cr;
	char s[2] = { c, 0 };

	ed->last_cr = false;
	if (c != CTRL('C'))
		ed->last_intr = false;
	/* A line end ends any escape sequence too: a line is never lost. */
	if (c == '\r' || c == '\n') {
		ed->esc = ESC_NONE;
		if (c == '\n' && after_cr)
			return SHELL_EDIT_MORE;
		ed->last_cr = c == '\r';
		out_str(ed, "\n", 1);
		if (ed->too_long)
			refuse_long_line(ed);
		return SHELL_EDIT_LINE;
	}
	if (ed->esc != ESC_NONE &&
	    (c != ESC || ed->esc == ESC_STRING || ed->esc == ESC_STRING_ESC)) {
		escape_byte(ed, c);
		return SHELL_EDIT_MORE;
	}
	if (c < 0x20 || c == 0x7f)
		return control_byte(ed, c);
	if (c < 0x80) /* the rest of UTF-8 is not ours to draw */
		shell_edit_insert(ed, s);
	return SHELL_EDIT_MORE;
}
