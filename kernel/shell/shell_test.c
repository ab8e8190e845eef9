// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the console: the line editor, splitting, completion,
 * the dispatcher's errors, and a fuzz case through editor and dispatcher.
 * Output goes to a sink here (shell_write swapped), never to the UART.
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/console.h>
#include <linux/errno.h>
#include <linux/printk.h>
#include <linux/shell.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <fixtures/shell_capture.h>

#define SINK_LEN 4096
static char sink[SINK_LEN + 1];
static size_t sink_len, sink_total;

/* Keeps the first SINK_LEN bytes written since sink_reset(). */
static void sink_write(const char *s, size_t len)
{
	size_t n = min(len, SINK_LEN - sink_len);

	memcpy(sink + sink_len, s, n);
	sink_len += n;
	sink[sink_len] = '\0';
	sink_total += len;
}

static void sink_reset(void)
{
	sink_len = sink_total = 0;
	sink[0] = '\0';
}

static int shell_test_init(struct kunit *test)
{
	struct shell_editor *ed = kunit_kzalloc(test, sizeof(*ed), GFP_KERNEL);

	KUNIT_ASSERT_TRUE(test, ed != NULL);
	shell_editor_init(ed, "> ");
	test->priv = ed;
	sink_reset();
	shell_write = sink_write;
	shell_sandbox = true;
	return 0;
}

static void shell_test_exit(struct kunit *test)
{
	shell_write = console_write;
	shell_sandbox = false;
}

/* Feeds s; returns the last result (a LINE stops the feed). */
static enum shell_edit feed(struct shell_editor *ed, const char *s)
{
	enum shell_edit r = SHELL_EDIT_MORE;

	while (*s && r != SHELL_EDIT_LINE)
		r = shell_edit_byte(ed, *s++);
	return r;
}

static void shell_test_insert_and_enter(struct kunit *test)
{
	struct shell_editor *ed = test->priv;

	KUNIT_EXPECT_EQ(test, feed(ed, "keys"), SHELL_EDIT_MORE);
	KUNIT_EXPECT_EQ(test, ed->cursor, 4);
	KUNIT_EXPECT_EQ(test, feed(ed, "\r"), SHELL_EDIT_LINE);
	KUNIT_EXPECT_STREQ(test, ed->line, "keys");
	ed->out[ed->out_len] = '\0';
	KUNIT_EXPECT_STREQ(test, ed->out, "keys\n");
	/* The LF of CR LF is skipped, a lone LF ends an empty line. */
	shell_editor_reset(ed);
	KUNIT_EXPECT_EQ(test, shell_edit_byte(ed, '\n'), SHELL_EDIT_MORE);
	KUNIT_EXPECT_EQ(test, shell_edit_byte(ed, '\n'), SHELL_EDIT_LINE);
	KUNIT_EXPECT_STREQ(test, ed->line, "");
	/* Bytes past the line's room are dropped. */
	shell_editor_reset(ed);
	while (ed->len < SHELL_LINE_MAX - 1)
		shell_edit_byte(ed, 'x');
	feed(ed, "yyyy");
	KUNIT_EXPECT_EQ(test, ed->len, SHELL_LINE_MAX - 1);
	KUNIT_EXPECT_EQ(test, ed->line[ed->len - 1], 'x');
}

static bool out_has(struct shell_editor *ed, const char *s)
{
	ed->out[min(ed->out_len, (unsigned int)SHELL_OUT_MAX - 1)] = '\0';
	return strstr(ed->out, s);
}

/* A line that does not fit is refused whole, with one line, not cut. */
static void shell_test_long_line(struct kunit *test)
{
	struct shell_editor *ed = test->priv;
	const char *why = "console: line longer than 255 bytes: not run\n";
	unsigned int i;

	for (i = 0; i < SHELL_LINE_MAX - 1; i++)
		shell_edit_byte(ed, 'x');
	KUNIT_EXPECT_EQ(test, feed(ed, "\r"), SHELL_EDIT_LINE);
	KUNIT_EXPECT_EQ(test, ed->len, SHELL_LINE_MAX - 1);
	KUNIT_EXPECT_FALSE(test, out_has(ed, why));
	shell_editor_reset(ed);
	ed->out_len = 0;
	/* The probe's line: cut at 255 bytes it would load jlm_base. */
	feed(ed, "insmod");
	for (i = 0; i < 241; i++)
		shell_edit_byte(ed, ' ');
	KUNIT_EXPECT_EQ(test, feed(ed, "jlm_base_user\r"), SHELL_EDIT_LINE);
	KUNIT_EXPECT_STREQ(test, ed->line, "");
	KUNIT_EXPECT_TRUE(test, out_has(ed, why));
	/* The next line is whole again. */
	shell_editor_reset(ed);
	ed->out_len = 0;
	KUNIT_EXPECT_EQ(test, feed(ed, "\nkeys\r"), SHELL_EDIT_LINE);
	KUNIT_EXPECT_STREQ(test, ed->line, "keys");
	KUNIT_EXPECT_FALSE(test, out_has(ed, why));
}

/* ESC right before Enter, OSC and other strings: the line survives. */
static void shell_test_escape_at_line_end(struct kunit *test)
{
	struct shell_editor *ed = test->priv;

	KUNIT_EXPECT_EQ(test, feed(ed, "uptime\x1b\r"), SHELL_EDIT_LINE);
	KUNIT_EXPECT_STREQ(test, ed->line, "uptime");
	shell_editor_reset(ed);
	KUNIT_EXPECT_EQ(test, feed(ed, "\nkeys\x1b[\r"), SHELL_EDIT_LINE);
	KUNIT_EXPECT_STREQ(test, ed->line, "keys");
	shell_editor_reset(ed);
	feed(ed, "\n\x1b]0;rmmod x\x07ke\x1b]8;;http://a\x1b\\ys");
	KUNIT_EXPECT_STREQ(test, ed->line, "keys");
	feed(ed, "\x1bP1$r\x1b\x1b\\ \x1b_apc\x07x");
	KUNIT_EXPECT_STREQ(test, ed->line, "keys x");
	/* An OSC cut by the line end: the line ends, the OSC with it. */
	KUNIT_EXPECT_EQ(test, feed(ed, "\x1b]2;title\r"), SHELL_EDIT_LINE);
	KUNIT_EXPECT_STREQ(test, ed->line, "keys x");
	shell_editor_reset(ed);
	KUNIT_EXPECT_EQ(test, feed(ed, "\nuptime\r"), SHELL_EDIT_LINE);
	KUNIT_EXPECT_STREQ(test, ed->line, "uptime");
}

static unsigned int keys_lines, keys_siteless;
static bool keys_summary;

static void keys_sink(const char *s, size_t len)
{
	if (strstr(s, " keys\n"))
		keys_summary = true;
	else if (strstr(s, "/"))
		keys_lines++;
	if (strstr(s, " 0/0 "))
		keys_siteless++;
}

/* keys lists keys with live sites only (sites in freed init text are not). */
static void shell_test_keys_have_sites(struct kunit *test)
{
	keys_lines = keys_siteless = 0;
	keys_summary = false;
	shell_capture_run("keys", keys_sink);
	KUNIT_EXPECT_TRUE(test, keys_summary);
	if (IS_ENABLED(CONFIG_JUMP_LABEL))
		KUNIT_EXPECT_GT(test, keys_lines, 10);
	KUNIT_EXPECT_EQ(test, keys_siteless, 0);
}

static void shell_test_delete(struct kunit *test)
{
	struct shell_editor *ed = test->priv;

	feed(ed, "abcd\x7f\b");
	KUNIT_EXPECT_STREQ(test, ed->line, "ab");
	feed(ed, "cdef\x1b[D\x1b[D\x15"); /* two left, ^U */
	KUNIT_EXPECT_STREQ(test, ed->line, "ef");
	KUNIT_EXPECT_EQ(test, ed->cursor, 0);
	feed(ed, "\x1b[3~"); /* delete under the cursor */
	KUNIT_EXPECT_STREQ(test, ed->line, "f");
	feed(ed, "\x7f\x1b[F\x7f\x7f"); /* backspace at 0, then past 0 */
	KUNIT_EXPECT_STREQ(test, ed->line, "");
	KUNIT_EXPECT_EQ(test, ed->cursor, 0);
	feed(ed, "ab\x03"); /* ^C drops the line */
	KUNIT_EXPECT_STREQ(test, ed->line, "");
}

/* ^C drops the line; a second one right after asks to end the machine. */
static void shell_test_interrupt(struct kunit *test)
{
	struct shell_editor *ed = test->priv;

	KUNIT_EXPECT_EQ(test, feed(ed, "keys\x03"), SHELL_EDIT_MORE);
	KUNIT_EXPECT_STREQ(test, ed->line, "");
	KUNIT_EXPECT_EQ(test, feed(ed, "\x03"), SHELL_EDIT_QUIT);
	shell_editor_reset(ed);
	/* A byte between the two: only a dropped line again. */
	KUNIT_EXPECT_EQ(test, feed(ed, "a\x03"), SHELL_EDIT_MORE);
	KUNIT_EXPECT_EQ(test, feed(ed, "b\x03"), SHELL_EDIT_MORE);
	KUNIT_EXPECT_EQ(test, feed(ed, "x\x7f\x03"), SHELL_EDIT_MORE);
	KUNIT_EXPECT_STREQ(test, ed->line, "");
}

static void shell_test_cursor(struct kunit *test)
{
	struct shell_editor *ed = test->priv;

	feed(ed, "ac\x1b[Db");
	KUNIT_EXPECT_STREQ(test, ed->line, "abc");
	KUNIT_EXPECT_EQ(test, ed->cursor, 2);
	feed(ed, "\x1b[Hx\x1b[Fy\x1bODz\x01<\x05>");
	KUNIT_EXPECT_STREQ(test, ed->line, "<xabczy>");
	feed(ed, "\x1b[C\x1b[C\x1b[1;5C"); /* right at the end: nothing */
	KUNIT_EXPECT_EQ(test, ed->cursor, ed->len);
	feed(ed, "\x1b[99;99;99X\x1b\x1b[Dq"); /* unknown, then ESC ESC [ D */
	KUNIT_EXPECT_STREQ(test, ed->line, "<xabczyq>");
}

static void shell_test_history(struct kunit *test)
{
	struct shell_editor *ed = test->priv;

	shell_history_add(ed, "one");
	shell_history_add(ed, "two");
	shell_history_add(ed, "two");
	shell_history_add(ed, "");
	KUNIT_EXPECT_EQ(test, ed->hist_len, 2);
	feed(ed, "par");
	feed(ed, "\x1b[A");
	KUNIT_EXPECT_STREQ(test, ed->line, "two");
	feed(ed, "\x1b[A\x1b[A");
	KUNIT_EXPECT_STREQ(test, ed->line, "one");
	feed(ed, "\x1b[B");
	KUNIT_EXPECT_STREQ(test, ed->line, "two");
	feed(ed, "\x1b[B");
	KUNIT_EXPECT_STREQ(test, ed->line, "par");
	KUNIT_EXPECT_EQ(test, ed->cursor, 3);
}

static void shell_test_history_ring(struct kunit *test)
{
	struct shell_editor *ed = test->priv;
	char buf[8];
	int i;

	for (i = 0; i < SHELL_HISTORY + 3; i++) {
		scnprintf(buf, sizeof(buf), "c%d", i);
		shell_history_add(ed, buf);
	}
	KUNIT_EXPECT_EQ(test, ed->hist_len, SHELL_HISTORY);
	for (i = 0; i < SHELL_HISTORY + 5; i++)
		feed(ed, "\x1b[A");
	scnprintf(buf, sizeof(buf), "c%d", 3); /* the oldest kept */
	KUNIT_EXPECT_STREQ(test, ed->line, buf);
}

static void shell_test_split(struct kunit *test)
{
	char line[] = "  key  jlt_key \"a b\" c\\;d ; keys x;;help";
	char *argv[SHELL_ARGV_MAX], *rest = line;

	KUNIT_ASSERT_EQ(test, shell_split(&rest, argv, SHELL_ARGV_MAX), 4);
	KUNIT_EXPECT_STREQ(test, argv[0], "key");
	KUNIT_EXPECT_STREQ(test, argv[1], "jlt_key");
	KUNIT_EXPECT_STREQ(test, argv[2], "a b");
	KUNIT_EXPECT_STREQ(test, argv[3], "c;d");
	KUNIT_ASSERT_EQ(test, shell_split(&rest, argv, SHELL_ARGV_MAX), 2);
	KUNIT_EXPECT_STREQ(test, argv[0], "keys");
	KUNIT_EXPECT_STREQ(test, argv[1], "x");
	KUNIT_ASSERT_EQ(test, shell_split(&rest, argv, SHELL_ARGV_MAX), 0);
	KUNIT_ASSERT_EQ(test, shell_split(&rest, argv, SHELL_ARGV_MAX), 1);
	KUNIT_EXPECT_STREQ(test, argv[0], "help");
	KUNIT_EXPECT_TRUE(test, rest == NULL);
}

static void shell_test_split_errors(struct kunit *test)
{
	char quote[] = "trace on \"sched ; poweroff", slash[] = "a b\\";
	char many[] = "a b c d e; f";
	char *argv[SHELL_ARGV_MAX], *rest = quote;

	KUNIT_EXPECT_EQ(test, shell_split(&rest, argv, SHELL_ARGV_MAX),
			-EINVAL);
	KUNIT_EXPECT_TRUE(test, rest == NULL);
	rest = slash;
	KUNIT_EXPECT_EQ(test, shell_split(&rest, argv, SHELL_ARGV_MAX),
			-EINVAL);
	rest = many;
	KUNIT_EXPECT_EQ(test, shell_split(&rest, argv, 4), -E2BIG);
	KUNIT_EXPECT_TRUE(test, rest == NULL);
}

static void shell_test_complete(struct kunit *test)
{
	struct shell_editor *ed = test->priv;
	static struct shell_completion c;

	feed(ed, "ke");
	shell_complete_begin(&c, ed);
	KUNIT_EXPECT_EQ(test, c.argi, 0);
	shell_complete_add(&c, "keys");
	shell_complete_add(&c, "key");
	shell_complete_add(&c, "help");
	KUNIT_EXPECT_EQ(test, c.matches, 2);
	KUNIT_EXPECT_EQ(test, shell_complete_apply(&c, ed), 1); /* progress */
	KUNIT_EXPECT_STREQ(test, ed->line, "key");
	shell_complete_begin(&c, ed);
	shell_complete_add(&c, "keys");
	shell_complete_add(&c, "key");
	KUNIT_EXPECT_EQ(test, shell_complete_apply(&c, ed), 2); /* list them */
	KUNIT_EXPECT_STREQ(test, c.list[1], "key");
	feed(ed, "\x15; trace  o");
	shell_complete_begin(&c, ed);
	KUNIT_EXPECT_EQ(test, c.argi, 1);
	KUNIT_EXPECT_STREQ(test, c.first_word, "trace");
	KUNIT_EXPECT_STREQ(test, c.word, "o");
	shell_complete_add(&c, "off");
	shell_complete_add(&c, "clear");
	KUNIT_EXPECT_EQ(test, shell_complete_apply(&c, ed), 1);
	KUNIT_EXPECT_STREQ(test, ed->line, "; trace  off ");
}

/* The real dispatcher and commands (sandboxed), against the sink. */
static void shell_test_dispatch(struct kunit *test)
{
	char line[SHELL_LINE_MAX];

	strscpy(line, "nosuch arg; key; help key; poweroff", sizeof(line));
	shell_run_line(line);
	KUNIT_EXPECT_TRUE(
		test,
		strstr(sink, "nosuch: unknown command; 'help' lists them\n"));
	KUNIT_EXPECT_TRUE(
		test,
		strstr(sink,
		       "key: bad arguments; usage: key <name> enable|disable|inc|dec\n"));
	KUNIT_EXPECT_TRUE(
		test,
		strstr(sink,
		       "key <name> enable|disable|inc|dec: change a key"));
	KUNIT_EXPECT_TRUE(test,
			  strstr(sink, "poweroff: refused in the sandbox\n"));
	sink_reset();
	strscpy(line, "keys kunit_runn*; sites kunit_running; sites nokey",
		sizeof(line));
	shell_run_line(line);
	if (IS_ENABLED(CONFIG_JUMP_LABEL)) {
		KUNIT_EXPECT_TRUE(test, strstr(sink, "\nkunit_running "));
		KUNIT_EXPECT_TRUE(test, strstr(sink, "\n1 of "));
		KUNIT_EXPECT_TRUE(test, strstr(sink, "\n1 sites "));
	}
	KUNIT_EXPECT_TRUE(test,
			  strstr(sink, "sites: nokey: no such key with sites"));
}

static u32 fuzz_state = 2463534242u;

static u32 fuzz_rand(void)
{
	fuzz_state ^= fuzz_state << 13;
	fuzz_state ^= fuzz_state >> 17;
	fuzz_state ^= fuzz_state << 5;
	return fuzz_state;
}

static const char *const fuzz_words[] = {
	"help",
	"keys",
	"key",
	"sites",
	"stats",
	"tracepoints",
	"trace",
	"cpus",
	"cpu",
	"lsmod",
	"insmod",
	"rmmod",
	"bench",
	"test",
	"mem",
	"uptime",
	"reboot",
	"poweroff",
	"kunit_running",
	"enable",
	"dec",
	"on",
	"off",
	"0",
	"-1",
	"99999999999999999999",
	"*",
	"\"",
	"\\",
	";",
	"\x1b[",
	"\x1b[3~",
	"\x1bO",
	"\x1b[A",
	"\x1b[B",
	"\x1b[D",
	"\t",
	"\x7f",
	"\x15",
	"\x03",
	"\r",
	"\n",
	" ",
	"%s%n%p",
};

/* One random chunk: a word, a control byte or any byte. */
static void fuzz_chunk(char *buf, size_t size)
{
	u32 r = fuzz_rand();

	if (r % 4 == 0) {
		buf[0] = fuzz_rand() & 0xff;
		buf[1] = '\0';
	} else {
		strscpy(buf, fuzz_words[r % ARRAY_SIZE(fuzz_words)], size);
	}
}

static void fuzz_byte(struct kunit *test, struct shell_editor *ed, u8 b)
{
	static char line[SHELL_LINE_MAX];

	switch (shell_edit_byte(ed, b)) {
	case SHELL_EDIT_LINE:
		shell_history_add(ed, ed->line);
		strscpy(line, ed->line, sizeof(line));
		shell_run_line(line);
		shell_editor_reset(ed);
		break;
	case SHELL_EDIT_COMPLETE:
		shell_complete(ed);
		break;
	default:
		break;
	}
	ed->out_len = 0;
	KUNIT_ASSERT_TRUE(test,
			  ed->len < SHELL_LINE_MAX && ed->cursor <= ed->len);
	KUNIT_ASSERT_EQ(test, strlen(ed->line), ed->len);
}

/*
 * shell_test.fuzz_lines random lines of words, escapes and bytes through
 * the editor, completion and the dispatcher: no crash, no WARN, and the
 * editor's invariants hold after every byte.
 */
static unsigned int fuzz_lines = 2000;
core_param_named("shell_test.fuzz_lines", fuzz_lines, uint);

static void shell_test_fuzz(struct kunit *test)
{
	struct shell_editor *ed = test->priv;
	u64 log_pos = printk_log_end();
	unsigned int i, j, n;
	char chunk[32];

	for (i = 0; i < fuzz_lines; i++) {
		n = fuzz_rand() % 12;
		for (j = 0; j < n; j++) {
			fuzz_chunk(chunk, sizeof(chunk));
			for (char *p = chunk; *p; p++)
				fuzz_byte(test, ed, *p);
		}
		fuzz_byte(test, ed, '\r');
	}
	KUNIT_EXPECT_TRUE(test, sink_total > 0);
	KUNIT_EXPECT_FALSE(test, printk_log_contains(log_pos, "WARNING"));
	KUNIT_EXPECT_FALSE(test, printk_log_contains(log_pos, "BUG"));
}

static struct kunit_case shell_test_cases[] = {
	KUNIT_CASE(shell_test_insert_and_enter),
	KUNIT_CASE(shell_test_long_line),
	KUNIT_CASE(shell_test_escape_at_line_end),
	KUNIT_CASE(shell_test_keys_have_sites),
	KUNIT_CASE(shell_test_delete),
	KUNIT_CASE(shell_test_interrupt),
	KUNIT_CASE(shell_test_cursor),
	KUNIT_CASE(shell_test_history),
	KUNIT_CASE(shell_test_history_ring),
	KUNIT_CASE(shell_test_split),
	KUNIT_CASE(shell_test_split_errors),
	KUNIT_CASE(shell_test_complete),
	KUNIT_CASE(shell_test_dispatch),
	KUNIT_CASE(shell_test_fuzz),
	{}
};

static struct kunit_suite shell_test_suite = {
	.name = "shell",
	.init = shell_test_init,
	.exit = shell_test_exit,
	.test_cases = shell_test_cases,
};

kunit_test_suite(shell_test_suite);
