// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the console's line editor and parser
 * (kernel/shell/editor.c, parse.c) on arbitrary bytes, built for the host
 * with clang -fsanitize=fuzzer,address,undefined over a shim of the three
 * kernel headers they use (tests/fuzz/shim/linux/).
 *
 * The input is what a terminal sends: each byte goes to shell_edit_byte()
 * as the console's loop feeds it. A finished line goes to the history and
 * is split command by command as shell_run_line() splits it; a tab
 * completes the word before the cursor against a fixed list of names.
 * After every step the documented invariants of the editor, the splitter
 * and the completion are checked; a broken one aborts, which libFuzzer
 * reports as a crash with the input that did it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/errno.h>
#include <linux/shell.h>

#define CHECK(cond)                                                          \
	do {                                                                 \
		if (!(cond)) {                                               \
			fprintf(stderr, "shell_fuzz: %s:%d: %s\n", __FILE__, \
				__LINE__, #cond);                            \
			abort();                                             \
		}                                                            \
	} while (0)

/* Names to complete against: shared prefixes, one a prefix of another. */
static const char *const names[] = {
	"key",	"keys", "kernel",   "trace", "tracepoints",
	"test", "help", "insmod",   "rmmod", "lsmod",
	"cpu",	"cpus", "poweroff", "bench",
};

static void check_editor(const struct shell_editor *ed)
{
	CHECK(ed->len < SHELL_LINE_MAX);
	CHECK(ed->cursor <= ed->len);
	CHECK(ed->line[ed->len] == '\0');
	CHECK(strlen(ed->line) == ed->len);
	CHECK(ed->out_len <= SHELL_OUT_MAX);
	CHECK(ed->hist_len <= SHELL_HISTORY);
	CHECK(ed->hist_next < SHELL_HISTORY);
	CHECK(ed->hist_pos <= ed->hist_len);
}

/* Splits line as shell_run_line() does, checking every command's words. */
static void split_all(const char *text)
{
	char buf[SHELL_LINE_MAX], *argv[SHELL_ARGV_MAX], *line = buf, *prev;
	size_t size = strlen(text) + 1;
	unsigned int rounds = 0;
	int argc, i;

	CHECK(size <= sizeof(buf));
	memcpy(buf, text, size);
	while (line) {
		CHECK(line >= buf && line < buf + size);
		CHECK(++rounds <= size);
		prev = line;
		argc = shell_split(&line, argv, SHELL_ARGV_MAX);
		CHECK(argc == -EINVAL || argc == -E2BIG ||
		      (argc >= 0 && argc <= SHELL_ARGV_MAX));
		/* It moves on, or stops: never the same place twice. */
		CHECK(!line || line > prev);
		for (i = 0; i < argc; i++) {
			CHECK(argv[i] >= buf && argv[i] < buf + size);
			CHECK(argv[i] + strlen(argv[i]) < buf + size);
		}
	}
}

static void complete(struct shell_editor *ed)
{
	static struct shell_completion c;
	unsigned int i, n, before = ed->len;

	shell_complete_begin(&c, ed);
	CHECK(c.word_len <= ed->cursor);
	CHECK(!memcmp(c.word, ed->line + ed->cursor - c.word_len, c.word_len));
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		shell_complete_add(&c, names[i]);
	CHECK(strlen(c.common) < SHELL_LINE_MAX);
	n = shell_complete_apply(&c, ed);
	CHECK(n <= c.matches);
	CHECK(ed->len >= before);
	check_editor(ed);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct shell_editor ed;
	size_t i;

	shell_editor_init(&ed, "> ");
	for (i = 0; i < size; i++) {
		switch (shell_edit_byte(&ed, data[i])) {
		case SHELL_EDIT_LINE:
			check_editor(&ed);
			shell_history_add(&ed, ed.line);
			split_all(ed.line);
			shell_editor_reset(&ed);
			break;
		case SHELL_EDIT_COMPLETE:
			complete(&ed);
			break;
		case SHELL_EDIT_MORE:
			break;
		default: /* whatever else the editor reports ends the line */
			shell_editor_reset(&ed);
			break;
		}
		check_editor(&ed);
		ed.out_len = 0; /* the console writes the echo and clears it */
	}
	/* What is left unterminated is split too, as if Enter came. */
	split_all(ed.line);
	return 0;
}
