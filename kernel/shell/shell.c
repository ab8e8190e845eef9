// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel console: a shell on COM1 (Documentation/console.rst).
 *
 * "shell" on the command line makes the init thread run shell_main()
 * instead of the test suites. It polls the UART every 10 ms (no IOAPIC
 * routes its interrupt; polling with msleep() leaves the CPU to others,
 * which matters under single-threaded TCG) and feeds the line editor;
 * every complete line is split into commands and run in this thread,
 * which may sleep (mutexes, load_module(), remove_cpu()).
 */
#include <linux/kernel.h>
#include <linux/console.h>
#include <linux/delay.h>
#include <linux/errno.h>
#include <linux/moduleparam.h>
#include <linux/processor.h>
#include <linux/reboot.h>
#include <linux/shell.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/timex.h>

#define SHELL_PROMPT "sk> "
#define SHELL_POLL_MS 10
#define SHELL_EOF 0x04 /* ^D */
#define CTRL_C 0x03
#define SHELL_SPIN_NS 2000000 /* polled without sleeping after a byte */

static bool shell_on;
core_param_named("shell", shell_on, bool);

bool shell_sandbox;

/* make bench (scripts/bench_boot.py): the TSC at the first prompt. */
static bool shell_report_boot;
core_param_named("shell.report_boot", shell_report_boot, bool);

bool shell_requested(void)
{
	return shell_on;
}

void (*shell_write)(const char *s, size_t len) = console_write;

void shell_printf(const char *fmt, ...)
{
	char buf[512];
	va_list args;
	int n;

	va_start(args, fmt);
	n = vscnprintf(buf, sizeof(buf), fmt, args);
	va_end(args);
	shell_write(buf, n);
}

static int cmd_help(int argc, char **argv);

static const struct shell_cmd shell_core_cmds[] = {
	{ "help", "[command]", "list the commands, or show one's usage", 0, 1,
	  false, cmd_help },
	{ NULL }
};

/* Without CONFIG_TRACING there is no cmd_trace.c: no trace commands. */
const struct shell_cmd __weak shell_trace_cmds[] = { { NULL } };

static const struct shell_cmd *const shell_groups[] = {
	shell_core_cmds,
	shell_key_cmds,
	shell_trace_cmds,
	shell_sys_cmds,
	shell_session_cmds,
	shell_user_cmds,
	shell_call_cmds,
};

#define for_each_shell_cmd(g, c)                             \
	for ((g) = 0; (g) < ARRAY_SIZE(shell_groups); (g)++) \
		for ((c) = shell_groups[g]; (c)->name; (c)++)

static const struct shell_cmd *shell_find(const char *name)
{
	const struct shell_cmd *c;
	unsigned int g;

	for_each_shell_cmd(g, c) if (!strcmp(c->name, name)) return c;
	return NULL;
}

int shell_usage(const char *name)
{
	const struct shell_cmd *c = shell_find(name);

	shell_printf("%s: bad arguments; usage: %s %s\n", name, name,
		     c ? c->usage : "");
	return -EINVAL;
}

static int cmd_help(int argc, char **argv)
{
	const struct shell_cmd *c;
	unsigned int g;

	if (argc == 2) {
		c = shell_find(argv[1]);
		if (!c) {
			shell_printf(
				"help: %s: no such command; 'help' lists them\n",
				argv[1]);
			return -ENOENT;
		}
		shell_printf("%s %s: %s\n", c->name, c->usage, c->help);
		return 0;
	}
	for_each_shell_cmd(g, c)
		shell_printf("  %-11s %-28s %s\n", c->name, c->usage, c->help);
	shell_printf(
		"Separate commands with ';'. Keys without sites are not listed.\n");
	return 0;
}

static int shell_run_cmd(int argc, char **argv)
{
	const struct shell_cmd *c = shell_find(argv[0]);

	if (!c) {
		shell_printf("%s: unknown command; 'help' lists them\n",
			     argv[0]);
		return -ENOENT;
	}
	if (argc - 1 < c->min_args || argc - 1 > c->max_args)
		return shell_usage(c->name);
	if (shell_sandbox && c->changes) {
		shell_printf("%s: refused in the sandbox\n", c->name);
		return -EPERM;
	}
	return c->fn(argc, argv);
}

int shell_run_line(char *line)
{
	char *argv[SHELL_ARGV_MAX];
	int argc, ret, first = 0;

	while (line) {
		argc = shell_split(&line, argv, SHELL_ARGV_MAX);
		if (argc == -EINVAL)
			shell_printf(
				"error: unterminated quote or trailing backslash; the rest of the line is ignored\n");
		else if (argc < 0)
			shell_printf(
				"error: more than %d words in a command; the rest of the line is ignored\n",
				SHELL_ARGV_MAX);
		if (!argc)
			continue;
		ret = argc < 0 ? argc : shell_run_cmd(argc, argv);
		shell_session_status(max(argc, 0), argv, ret);
		if (ret && !first)
			first = ret;
	}
	return first;
}

/* The prompt and the line again, the cursor where it was. */
static void shell_redraw(struct shell_editor *ed)
{
	shell_printf("%s%s", ed->prompt, ed->line);
	if (ed->len > ed->cursor)
		shell_printf("\x1b[%uD", ed->len - ed->cursor);
}

void shell_complete(struct shell_editor *ed)
{
	static struct shell_completion c; /* large; one console thread */
	const struct shell_cmd *cmd;
	unsigned int g, i, n;

	shell_complete_begin(&c, ed);
	if (!c.argi) {
		for_each_shell_cmd(g, cmd) shell_complete_add(&c, cmd->name);
	} else {
		cmd = shell_find(c.first_word);
		if (cmd && cmd->complete)
			cmd->complete(&c);
	}
	n = shell_complete_apply(&c, ed);
	if (n <= 1)
		return;
	shell_write(ed->out, ed->out_len);
	ed->out_len = 0;
	shell_printf("\n");
	for (i = 0; i < min(n, (unsigned int)SHELL_COMPLETE_LIST); i++)
		shell_printf("%s%s", c.list[i], i + 1 < n ? "  " : "\n");
	if (n > SHELL_COMPLETE_LIST)
		shell_printf("... %u more\n", n - SHELL_COMPLETE_LIST);
	shell_redraw(ed);
}

static void shell_flush(struct shell_editor *ed)
{
	shell_write(ed->out, ed->out_len);
	ed->out_len = 0;
}

/* Bytes shell_interrupted() read while a command ran, for the editor. */
static u8 shell_pending[64];
static unsigned int shell_npending;

bool shell_interrupted(void)
{
	bool intr = false;
	int c;

	while ((c = console_getc()) >= 0) {
		if (c == CTRL_C)
			intr = true;
		else if (shell_npending < sizeof(shell_pending))
			shell_pending[shell_npending++] = c;
	}
	return intr;
}

/* Feeds one byte; runs the line when it is complete. */
static void shell_byte(struct shell_editor *ed, u8 byte)
{
	static char line[SHELL_LINE_MAX];

	/* ^D on an empty line: the end of input, as for a shell. */
	if (byte == SHELL_EOF && !ed->len) {
		shell_flush(ed);
		shell_session_end();
	}
	switch (shell_edit_byte(ed, byte)) {
	case SHELL_EDIT_LINE:
		shell_flush(ed);
		shell_session_line();
		shell_history_add(ed, ed->line);
		strscpy(line, ed->line, sizeof(line));
		shell_run_line(line);
		shell_editor_reset(ed);
		shell_printf("%s", ed->prompt);
		break;
	case SHELL_EDIT_COMPLETE:
		shell_complete(ed);
		break;
	case SHELL_EDIT_MORE:
		break;
	case SHELL_EDIT_QUIT:
		shell_flush(ed);
		shell_printf("console: ^C twice: power down\n");
		kernel_power_off();
	}
	shell_flush(ed);
}

/* The next byte: one shell_interrupted() kept, else the UART's, or -1. */
static int shell_getc(void)
{
	static unsigned int next;
	int c;

	if (next < shell_npending) {
		c = shell_pending[next++];
		if (next == shell_npending)
			next = shell_npending = 0;
		return c;
	}
	return console_getc();
}

/*
 * Polls COM1: without a pause while bytes are coming (without FIFOs the
 * UART holds one: QEMU hands over the next once it is read), then 1 ms,
 * then SHELL_POLL_MS once it has been quiet for a while.
 */
void shell_main(void)
{
	static struct shell_editor ed;
	unsigned int quiet = 0;
	u64 last = 0;
	int c;

	shell_editor_init(&ed, SHELL_PROMPT);
	if (shell_report_boot)
		shell_printf(
			"shell: prompt at TSC %llu (instructions under icount)\n",
			get_cycles());
	shell_printf(
		"Kernel console: 'help' lists the commands, 'poweroff' or ^D ends.\n%s",
		ed.prompt);
	for (;;) {
		c = shell_getc();
		if (c >= 0) {
			quiet = 0;
			shell_byte(&ed, c);
			last = ktime_get_ns();
		} else if (ktime_get_ns() - last < SHELL_SPIN_NS) {
			cpu_relax();
		} else {
			msleep(++quiet > 100 ? SHELL_POLL_MS : 1);
		}
	}
}
