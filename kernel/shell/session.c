// SPDX-License-Identifier: GPL-2.0
/*
 * The console session's status (Documentation/console.rst), as a shell's
 * $?: every command returns 0 or an error, the session keeps the count
 * of commands and failures and the first failing command, and the end of
 * input (^D on an empty line; scripts/qemu.py sends one when make run's
 * stdin is a pipe or a file and it ends) powers the machine off with
 * QEMU status 33 when every command succeeded, 35 otherwise.
 */
#include <linux/kernel.h>
#include <linux/reboot.h>
#include <linux/shell.h>
#include <linux/string.h>

static struct {
	unsigned int lines; /* lines read so far: the current one's number */
	unsigned int commands, failed;
	unsigned int first_line; /* of the first failure, 0 if none */
	int first_status;
	char first_cmd[SHELL_LINE_MAX];
} session;

int shell_last_status;

void shell_session_line(void)
{
	session.lines++;
}

/* The words of argv again, blank separated, into buf. */
static void join_words(char *buf, size_t size, int argc, char **argv)
{
	size_t len = 0;
	int i;

	if (!argc) {
		strscpy(buf, "(a command that did not parse)", size);
		return;
	}
	buf[0] = '\0';
	for (i = 0; i < argc && len + 1 < size; i++)
		len += scnprintf(buf + len, size - len, "%s%s", i ? " " : "",
				 argv[i]);
}

void shell_session_status(int argc, char **argv, int status)
{
	/* The fuzz case's commands are not the session's. */
	if (shell_sandbox)
		return;
	shell_last_status = status;
	session.commands++;
	if (!status)
		return;
	if (!session.failed++) {
		session.first_line = session.lines;
		session.first_status = status;
		join_words(session.first_cmd, sizeof(session.first_cmd), argc,
			   argv);
	}
}

void shell_session_end(void)
{
	shell_printf("\nshell: end of input after %u lines, %u commands, ",
		     session.lines, session.commands);
	if (!session.failed) {
		shell_printf("all succeeded\nreboot: Power down\n");
		kernel_power_off();
	}
	shell_printf("%u failed; the first: line %u: %s (status %d)\n",
		     session.failed, session.first_line, session.first_cmd,
		     session.first_status);
	shell_printf("reboot: Power down\n");
	kernel_power_off_failed();
}

static int cmd_echo(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		shell_printf("%s%s", argv[i], i + 1 < argc ? " " : "");
	shell_printf("\n");
	return 0;
}

static int cmd_status(int argc, char **argv)
{
	shell_printf("%d\n", shell_last_status);
	return 0;
}

const struct shell_cmd shell_session_cmds[] = {
	{ "echo", "[word]...", "print the words (for scripts)", 0,
	  SHELL_ARGV_MAX - 1, false, cmd_echo },
	{ "status", "", "the last command's status, 0 or -errno ($?)", 0, 0,
	  false, cmd_status },
	{ NULL }
};
